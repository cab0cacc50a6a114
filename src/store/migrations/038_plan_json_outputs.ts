import type { Kysely } from 'kysely';

/**
 * The JSON plan of a run's plan phase (`terraform show -json` of the saved plan) and the provider
 * schemas it was made with (`terraform providers schema -json`), for `GET /plans/:id/json-output`
 * and `/json-output-redacted` (services/runs/plan-json.ts): one row per run, written by the
 * executor before its plan phase ends, kept as long as the run (unlike `saved_plans`, deleted when
 * the run ends: HCP lets you read a plan's JSON after its run applied). Both bodies are gzipped;
 * `size` is their length in bytes before compression (at most MAX_PLAN_JSON_BYTES together).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('plan_json_outputs')
    .addColumn('run_id', 'text', (c) => c.primaryKey().references('runs.id').onDelete('cascade'))
    .addColumn('plan_json', 'blob', (c) => c.notNull())
    .addColumn('provider_schemas', 'blob', (c) => c.notNull())
    .addColumn('size', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}
