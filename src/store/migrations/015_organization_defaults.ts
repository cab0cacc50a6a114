import type { Kysely } from 'kysely';

/**
 * Organization-level defaults that workspaces inherit live, agent pool scoping, and reserved tag
 * keys.
 *
 * - `organizations.default_agent_pool_id`: the pool of the organization's `agent` default mode.
 *   The three VCS status settings of HCP Terraform are stored as given.
 *   The pool columns carry no foreign key: `db copy` fills tables in creation order, and
 *   organizations and projects come before agent pools. The agent pool service refuses to delete
 *   a pool that is a default (409), and deleting an organization removes both sides.
 * - `projects.execution_overridden`: 1 when the project sets its own default execution mode
 *   (`default_execution_mode`, `default_agent_pool_id`); 0 inherits the organization's. Until now
 *   a project copied the organization's mode when it was created and nothing could change the
 *   copy, so every existing project inherits (0): the organization's current mode is the one
 *   its users chose last.
 * - `agent_pool_allowed_workspaces`: the workspaces a pool that is not organization-scoped serves.
 * - `reserved_tag_keys`: tag keys an organization reserves, unique per organization.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('organizations').addColumn('default_agent_pool_id', 'text').execute();
  await db.schema
    .alterTable('organizations')
    .addColumn('send_passing_statuses', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('organizations')
    .addColumn('aggregated_commit_status_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .alterTable('organizations')
    .addColumn('speculative_plan_management_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();

  await db.schema
    .alterTable('projects')
    .addColumn('execution_overridden', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema.alterTable('projects').addColumn('default_agent_pool_id', 'text').execute();

  await db.schema
    .createTable('agent_pool_allowed_workspaces')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('agent_pool_id', 'text', (c) => c.notNull().references('agent_pools.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addUniqueConstraint('agent_pool_allowed_workspaces_pair', ['agent_pool_id', 'workspace_id'])
    .execute();
  await db.schema
    .createIndex('agent_pool_allowed_workspaces_workspace')
    .on('agent_pool_allowed_workspaces')
    .column('workspace_id')
    .execute();

  await db.schema
    .createTable('reserved_tag_keys')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('disable_overrides', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('reserved_tag_keys_org_key', ['organization_id', 'key'])
    .execute();
}
