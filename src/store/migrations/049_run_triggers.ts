import { sql, type Kysely } from 'kysely';

/**
 * Run triggers (issue 45, item 1: HCP Terraform's Run Triggers API). `run_triggers`: one row per
 * connection of a source workspace (`sourceable_id`) to the workspace whose runs it queues
 * (`workspace_id`, the target): an apply of a run of the source queues a run in the target
 * (services/runs/triggered-runs.ts). Unique by the pair; a workspace is never its own source
 * (checked by the service, and by the CHECK here). Deleting either workspace deletes the row, so
 * a workspace's triggers go with it both ways. `seq` orders a workspace's lists in the order the
 * triggers were made.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('run_triggers')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('sourceable_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('run_triggers_pair', ['workspace_id', 'sourceable_id'])
    .addCheckConstraint('run_triggers_not_itself', sql`workspace_id <> sourceable_id`)
    .execute();
  await db.schema.createIndex('run_triggers_sourceable').on('run_triggers').columns(['sourceable_id', 'seq']).execute();
}
