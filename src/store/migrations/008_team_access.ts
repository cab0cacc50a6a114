import type { Kysely } from 'kysely';

/**
 * Team access to single projects and workspaces (HCP Terraform's `team-projects` and
 * `team-workspaces`). `access` is the level; the other columns are the custom permissions, used
 * only when `access` is `custom` (fixed levels imply theirs, see src/domain/permissions/access.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('team_projects')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addColumn('access', 'text', (c) => c.notNull())
    .addColumn('project_settings', 'text', (c) => c.notNull().defaultTo('read'))
    .addColumn('project_teams', 'text', (c) => c.notNull().defaultTo('none'))
    .addColumn('ws_runs', 'text', (c) => c.notNull().defaultTo('read'))
    .addColumn('ws_variables', 'text', (c) => c.notNull().defaultTo('none'))
    .addColumn('ws_state_versions', 'text', (c) => c.notNull().defaultTo('none'))
    .addColumn('ws_sentinel_mocks', 'text', (c) => c.notNull().defaultTo('none'))
    .addColumn('ws_create', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ws_locking', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ws_delete', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ws_move', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('ws_run_tasks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('team_projects_team_project', ['team_id', 'project_id'])
    .execute();
  await db.schema.createIndex('team_projects_project').on('team_projects').column('project_id').execute();

  await db.schema
    .createTable('team_workspaces')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('team_id', 'text', (c) => c.notNull().references('teams.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('access', 'text', (c) => c.notNull())
    .addColumn('runs', 'text', (c) => c.notNull().defaultTo('read'))
    .addColumn('variables', 'text', (c) => c.notNull().defaultTo('none'))
    .addColumn('state_versions', 'text', (c) => c.notNull().defaultTo('none'))
    .addColumn('sentinel_mocks', 'text', (c) => c.notNull().defaultTo('none'))
    .addColumn('workspace_locking', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('run_tasks', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addUniqueConstraint('team_workspaces_team_workspace', ['team_id', 'workspace_id'])
    .execute();
  await db.schema.createIndex('team_workspaces_workspace').on('team_workspaces').column('workspace_id').execute();
}
