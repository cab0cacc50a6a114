import type { Kysely } from 'kysely';

/**
 * Project-owned variable sets (issue 43): HCP Terraform's `parent` relationship of a variable
 * set, a project or the organization. `varsets.parent_project_id` is the owning project, NULL
 * for a set owned by its organization (every set stored before this migration). A project-owned
 * set is managed by the project's admins as well as the organization's managers, is never
 * global, and applies only to the project and its workspaces (services/variables/varsets.ts).
 * Deleting the project deletes the sets it owns (with their variables and where they apply).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('varsets')
    .addColumn('parent_project_id', 'text', (c) => c.references('projects.id').onDelete('cascade'))
    .execute();
  await db.schema.createIndex('varsets_parent_project').on('varsets').column('parent_project_id').execute();
}
