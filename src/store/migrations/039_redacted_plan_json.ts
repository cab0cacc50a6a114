import type { Kysely } from 'kysely';

/**
 * The redacted JSON plan of a run (`GET /plans/:id/json-output-redacted`), made once when the
 * executor hands the plan over and kept gzipped beside it, instead of being made again from the
 * plan and its provider schemas (tens of MB for big providers) on every request. Null for the
 * plans stored before this migration: those are redacted on each read, as before.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('plan_json_outputs').addColumn('redacted_json', 'blob').execute();
}
