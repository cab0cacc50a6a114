import type { Kysely } from 'kysely';

/**
 * Schedules of `berth serve` (issue 36, src/scheduler/):
 * - `scheduler_leases`: one row per scheduled task family (`name`), held by one serve instance
 *   (`holder`) until `expires_at`; the holder renews it on each tick, another instance takes it
 *   over only once it expired (a conditional update), so one instance among several on one
 *   PostgreSQL database acts.
 * - `scheduled_runs`: what the scheduler queued (or decided to skip), one row per workspace and
 *   due time of a kind (`auto-destroy`, `assessment`); the unique key makes a second queueing of
 *   the same due time fail inside its transaction, whichever instance tries.
 * - `assessment_results`: health assessments (hosted edition), one per assessment run: whether the
 *   refresh-only plan succeeded and found drift. `workspaces.current_assessment_result_id` names
 *   the workspace's latest finished one (the `current-assessment-result` relationship).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('scheduler_leases')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('scheduled_runs')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('due_at', 'text', (c) => c.notNull())
    .addColumn('run_id', 'text')
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('scheduled_runs_once', ['kind', 'workspace_id', 'due_at'])
    .execute();
  await db.schema
    .createTable('assessment_results')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    // Not a foreign key: retention may prune the run, the result stays.
    .addColumn('run_id', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('drifted', 'integer')
    .addColumn('succeeded', 'integer')
    .addColumn('error_msg', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema
    .createIndex('assessment_results_workspace')
    .on('assessment_results')
    .columns(['workspace_id', 'seq'])
    .execute();
  await db.schema.createIndex('assessment_results_run').on('assessment_results').columns(['run_id']).execute();
  await db.schema.alterTable('workspaces').addColumn('current_assessment_result_id', 'text').execute();
}
