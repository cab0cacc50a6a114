import type { Kysely } from 'kysely';

/** The `organization-access` flags of a team that migration 001 did not store. */
const NEW_TEAM_FLAGS = [
  'manage_policies',
  'manage_policy_overrides',
  'manage_vcs_settings',
  'manage_providers',
  'manage_modules',
  'manage_run_tasks',
  'manage_membership',
  'manage_teams',
  'manage_organization_access',
  'access_secret_teams',
  'manage_agent_pools',
];

/**
 * Teams keep every `organization-access` flag HCP Terraform defines, their `sso-team-id` and
 * `allow-member-token-management` (HCP's default: true). Project grants keep `variable-sets`.
 * Tokens get their creator (`created_by_type`: `users`, `teams` or `organizations`, and its id;
 * null when unknown). Their expiry (`expired_at`) comes from migration 014, which always runs
 * first. (No schema introspection here: on PostgreSQL it lists the tables of every schema.)
 */
export async function up(db: Kysely<any>): Promise<void> {
  for (const column of NEW_TEAM_FLAGS) {
    await db.schema
      .alterTable('teams')
      .addColumn(column, 'integer', (c) => c.notNull().defaultTo(0))
      .execute();
  }
  await db.schema.alterTable('teams').addColumn('sso_team_id', 'text').execute();
  await db.schema
    .alterTable('teams')
    .addColumn('allow_member_token_management', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();

  await db.schema
    .alterTable('team_projects')
    .addColumn('project_variable_sets', 'text', (c) => c.notNull().defaultTo('none'))
    .execute();

  for (const column of ['created_by_type', 'created_by_id']) {
    await db.schema.alterTable('tokens').addColumn(column, 'text').execute();
  }
  await db.schema.createIndex('tokens_team').ifNotExists().on('tokens').column('team_id').execute();
}
