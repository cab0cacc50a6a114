import type { Kysely } from 'kysely';

/**
 * `filter[locked]` and `sort=locked-at` of workspace lists (the console's locks board): the locked
 * workspaces of an organization, oldest lock first, a page at a time and counted, from an index
 * instead of every workspace of the organization.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createIndex('workspaces_org_locked_at')
    .on('workspaces')
    .columns(['organization_id', 'locked', 'locked_at'])
    .execute();
}
