import type { Kysely } from 'kysely';

/**
 * State versions (their bodies in a table of their own, as states can be megabytes) and the
 * workspace's pointer to its current one.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('state_versions')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('serial', 'integer', (c) => c.notNull())
    .addColumn('lineage', 'text')
    .addColumn('md5', 'text', (c) => c.notNull())
    // pending (waiting for its upload) or finalized.
    .addColumn('status', 'text', (c) => c.notNull())
    // Created while the workspace was locked and not yet made current by an unlock.
    .addColumn('intermediate', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('resource_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('size', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('terraform_version', 'text')
    // Capability secret of the upload and download URLs (like a signed URL).
    .addColumn('url_secret', 'text', (c) => c.notNull())
    .addColumn('created_by_kind', 'text')
    .addColumn('created_by_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('finalized_at', 'text')
    .execute();
  await db.schema
    .createIndex('state_versions_workspace')
    .on('state_versions')
    .columns(['workspace_id', 'seq'])
    .execute();

  await db.schema
    .createTable('state_bodies')
    .addColumn('state_version_id', 'text', (c) => c.primaryKey().references('state_versions.id').onDelete('cascade'))
    .addColumn('body', 'text', (c) => c.notNull())
    .execute();

  await db.schema.alterTable('workspaces').addColumn('current_state_version_id', 'text').execute();
}
