import type { Kysely } from 'kysely';

/**
 * Saved-plan runs (`terraform plan -out` with a `cloud` block; the run attribute `save-plan`):
 * - `runs.save_plan`: 1 for a run created with `save-plan: true`. It plans at once without
 *   queueing or locking its workspace, ends `planned_and_saved`, and joins the workspace's queue
 *   only when it is applied (docs/api.md, "Saved-plan runs").
 * - `runs.plan_state_version_id`: the workspace's current state version when the run's plan phase
 *   started (null: none). A saved plan whose workspace has another current state version since is
 *   stale: it is discarded.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('runs')
    .addColumn('save_plan', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('runs').addColumn('plan_state_version_id', 'text').execute();
}
