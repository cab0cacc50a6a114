import type { Kysely } from 'kysely';

/**
 * Workspaces and the records their rules refer to: key-value tag bindings, flat tags (the table
 * the flat-tags issue builds its endpoints on), agent pools and OAuth tokens (VCS connections).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('agent_pools')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('organization_scoped', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('agent_pools_org_name', ['organization_id', 'name'])
    .execute();

  await db.schema
    .createTable('oauth_tokens')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('service_provider', 'text', (c) => c.notNull())
    .addColumn('name', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('workspaces')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    // NO ACTION (checked at the end of the statement): deleting a project that still holds
    // workspaces fails, while deleting the organization removes both in one statement.
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_lower', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('allow_destroy_plan', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('assessments_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('auto_apply', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('auto_apply_run_trigger', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('auto_destroy_at', 'text')
    // Own value; used only when auto_destroy_overridden = 1, else the project's value applies.
    .addColumn('auto_destroy_activity_duration', 'text')
    .addColumn('auto_destroy_overridden', 'integer', (c) => c.notNull().defaultTo(0))
    // Own execution mode; null inherits the project's default-execution-mode, else the org's.
    .addColumn('execution_mode', 'text')
    .addColumn('agent_pool_id', 'text', (c) => c.references('agent_pools.id'))
    .addColumn('file_triggers_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('global_remote_state', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('queue_all_runs', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('source', 'text', (c) => c.notNull().defaultTo('tfe-api'))
    .addColumn('source_name', 'text')
    .addColumn('source_url', 'text')
    .addColumn('speculative_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('terraform_version', 'text', (c) => c.notNull())
    .addColumn('trigger_patterns', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('trigger_prefixes', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('working_directory', 'text')
    // JSON of the VCS repository settings, or null.
    .addColumn('vcs_repo', 'text')
    .addColumn('vcs_oauth_token_id', 'text', (c) => c.references('oauth_tokens.id'))
    // Locking (the locking issue drives these).
    .addColumn('locked', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('locked_reason', 'text')
    .addColumn('locked_by_kind', 'text')
    .addColumn('locked_by_id', 'text')
    .addColumn('locked_at', 'text')
    // Facts that state versions and runs (the locking issue) keep up to date.
    .addColumn('resource_count', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('latest_change_at', 'text', (c) => c.notNull())
    .addColumn('current_run_id', 'text')
    .addColumn('current_run_status', 'text')
    .addColumn('current_run_created_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('workspaces_org_name', ['organization_id', 'name_lower'])
    .execute();
  await db.schema.createIndex('workspaces_project').on('workspaces').column('project_id').execute();

  await db.schema
    .createTable('workspace_tag_bindings')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('workspace_tag_bindings_key', ['workspace_id', 'key'])
    .execute();
  await db.schema
    .createIndex('workspace_tag_bindings_key_value')
    .on('workspace_tag_bindings')
    .columns(['key', 'value'])
    .execute();

  // Flat string tags of an organization and their assignment to workspaces (endpoints: the
  // flat-tags issue; read here by tag-names and search[tags]).
  await db.schema
    .createTable('tags')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('tags_org_name', ['organization_id', 'name'])
    .execute();
  await db.schema
    .createTable('workspace_tags')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('tag_id', 'text', (c) => c.notNull().references('tags.id').onDelete('cascade'))
    .addUniqueConstraint('workspace_tags_pair', ['workspace_id', 'tag_id'])
    .execute();
  await db.schema.createIndex('workspace_tags_tag').on('workspace_tags').column('tag_id').execute();
}
