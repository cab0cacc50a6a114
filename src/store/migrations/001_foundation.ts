import type { Kysely } from 'kysely';

/** Organizations, users, teams, tokens, projects and instance settings. */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('organizations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('allow_force_delete_workspaces', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('assessments_enforced', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('default_execution_mode', 'text', (c) => c.notNull().defaultTo('remote'))
    .addColumn('cost_estimation_enabled', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('session_timeout', 'integer')
    .addColumn('session_remember', 'integer')
    .addColumn('collaborator_auth_policy', 'text', (c) => c.notNull().defaultTo('password'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('username', 'text', (c) => c.notNull().unique())
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('site_admin', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('teams')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('is_owners', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('manage_projects', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('manage_workspaces', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('read_projects', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('read_workspaces', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('visibility', 'text', (c) => c.notNull().defaultTo('secret'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('teams_org_name', ['organization_id', 'name'])
    .execute();

  await db.schema
    .createTable('team_members')
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('team_members_pk', ['team_id', 'user_id'])
    .execute();
  await db.schema.createIndex('team_members_user').on('team_members').column('user_id').execute();

  await db.schema
    .createTable('tokens')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('team_id', 'text', (c) => c.references('teams.id').onDelete('cascade'))
    .addColumn('organization_id', 'text', (c) => c.references('organizations.id').onDelete('cascade'))
    .addColumn('description', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .execute();

  await db.schema
    .createTable('projects')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_lower', 'text', (c) => c.notNull())
    .addColumn('description', 'text')
    .addColumn('auto_destroy_activity_duration', 'text')
    .addColumn('default_execution_mode', 'text', (c) => c.notNull().defaultTo('remote'))
    .addColumn('is_default', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('projects_org_name', ['organization_id', 'name_lower'])
    .execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
}
