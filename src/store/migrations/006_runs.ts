import type { Kysely } from 'kysely';

/** Run records (migration 006, from before berth executed runs: runs executed elsewhere, reported to berth). */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('runs')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('message', 'text')
    .addColumn('is_destroy', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('tfe-api'))
    .addColumn('plan_started_at', 'text')
    .addColumn('plan_finished_at', 'text')
    .addColumn('apply_started_at', 'text')
    .addColumn('apply_finished_at', 'text')
    .addColumn('error_message', 'text')
    .addColumn('policy_check_failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_by_kind', 'text')
    .addColumn('created_by_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('runs_workspace').on('runs').columns(['workspace_id', 'seq']).execute();
}
