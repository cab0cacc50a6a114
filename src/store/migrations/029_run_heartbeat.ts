import type { Kysely } from 'kysely';

/**
 * Crash recovery of executed runs (issue 34): `runs.heartbeat_at` is when the executor that
 * claimed a run (`claimed_by`) last said it still runs it. A planning or applying run whose
 * heartbeat is older than a bound belongs to an executor that is gone (killed, crashed, its host
 * lost): any live instance ends it errored and releases its workspace.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('runs').addColumn('heartbeat_at', 'text').execute();
}
