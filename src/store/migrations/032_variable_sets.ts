import type { Kysely } from 'kysely';

/**
 * Variable sets (issue 35): named sets of Terraform and environment variables of one
 * organization, applied to every workspace (`global`), to chosen projects (every workspace in
 * them) and to chosen workspaces. `priority` sets override workspace variables and run variables.
 * - `varsets`: the sets; the name is unique per organization, case-insensitively (`name_lower`).
 * - `varset_variables`: their variables; a key is unique per set and category. A sensitive
 *   variable's value is stored like any other and never leaves the API (write-only).
 * - `varset_workspaces`, `varset_projects`: where a set applies.
 * Deleting the organization, a workspace or a project deletes what refers to it.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('varsets')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('organization_id', 'text', (c) => c.notNull().references('organizations.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('name_lower', 'text', (c) => c.notNull())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('global', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('priority', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('varsets_org_name')
    .on('varsets')
    .columns(['organization_id', 'name_lower'])
    .unique()
    .execute();

  await db.schema
    .createTable('varset_variables')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('varset_id', 'text', (c) => c.notNull().references('varsets.id').onDelete('cascade'))
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('description', 'text')
    .addColumn('category', 'text', (c) => c.notNull())
    .addColumn('hcl', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('sensitive', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('varset_variables_key')
    .on('varset_variables')
    .columns(['varset_id', 'category', 'key'])
    .unique()
    .execute();

  await db.schema
    .createTable('varset_workspaces')
    .addColumn('varset_id', 'text', (c) => c.notNull().references('varsets.id').onDelete('cascade'))
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('varset_workspaces_pk', ['varset_id', 'workspace_id'])
    .execute();
  await db.schema.createIndex('varset_workspaces_ws').on('varset_workspaces').column('workspace_id').execute();

  await db.schema
    .createTable('varset_projects')
    .addColumn('varset_id', 'text', (c) => c.notNull().references('varsets.id').onDelete('cascade'))
    .addColumn('project_id', 'text', (c) => c.notNull().references('projects.id').onDelete('cascade'))
    .addPrimaryKeyConstraint('varset_projects_pk', ['varset_id', 'project_id'])
    .execute();
  await db.schema.createIndex('varset_projects_prj').on('varset_projects').column('project_id').execute();
}
