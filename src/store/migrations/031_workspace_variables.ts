import type { Kysely } from 'kysely';

/**
 * Workspace variables (issue 35): Terraform and environment variables of a workspace, given to
 * the runs berth executes. A key is unique per workspace and category (`terraform` | `env`), as
 * in HCP Terraform. `sensitive` values are write-only (the API never answers them); `version_id`
 * changes on every update. A workspace's variables go with the workspace.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('workspace_variables')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('hcl', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sensitive', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('version_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('workspace_variables_key')
    .on('workspace_variables')
    .columns(['workspace_id', 'category', 'key'])
    .unique()
    .execute();
}
