import type { Kysely } from 'kysely';

/**
 * Workspace relations: SSH keys (and the workspace's assigned key), remote state consumers,
 * data retention policies (organization defaults and workspace policies).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('ssh_keys')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    // The private key text: write-only, never returned by the API nor logged.
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  // Deleting a key unassigns it from its workspaces.
  await db.schema
    .alterTable('workspaces')
    .addColumn('ssh_key_id', 'text', (c) => c.references('ssh_keys.id').onDelete('set null'))
    .execute();

  // The approved consumers of a workspace's state; deleting either side removes the pair.
  await db.schema
    .createTable('remote_state_consumers')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('consumer_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addUniqueConstraint('remote_state_consumers_pair', ['workspace_id', 'consumer_id'])
    .execute();
  await db.schema
    .createIndex('remote_state_consumers_consumer')
    .on('remote_state_consumers')
    .column('consumer_id')
    .execute();

  // One policy per owner: the organization default (workspace_id null) or a workspace's own.
  await db.schema
    .createTable('data_retention_policies')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.references('workspaces.id').onDelete('cascade'))
    // delete-older or dont-delete
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('delete_older_than_n_days', 'integer')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('data_retention_policies_owner')
    .on('data_retention_policies')
    .columns(['organization_id', 'workspace_id'])
    .execute();
}
