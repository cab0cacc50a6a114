import type { Kysely } from 'kysely';

/**
 * Two settings HCP Terraform stores and reads back as written, which berth answered with fixed
 * values (`owners-team-saml-role-id` always null, `structured-run-output-enabled` always true):
 *
 * - `organizations.owners_team_saml_role_id`: the SAML role that maps to the owners team; null
 *   (not set) by default.
 * - `workspaces.structured_run_output_enabled`: 1 (true, HCP Terraform's default) for every
 *   existing workspace and for new ones that do not set it.
 *
 * Plain added columns on both engines; `db copy` and backups copy every column of every table.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('organizations').addColumn('owners_team_saml_role_id', 'text').execute();
  await db.schema
    .alterTable('workspaces')
    .addColumn('structured_run_output_enabled', 'integer', (c) => c.notNull().defaultTo(1))
    .execute();
}
