import type { Kysely } from 'kysely';

/**
 * The workspaces of an organization in `seq` order (an index on the organization ends with the
 * row's `seq`, the table's integer key): a list page in the default order, or with a filter that
 * many workspaces pass (exclusions, name patterns), is read in order and stops after its 100
 * rows instead of sorting every match. Measured with bench/list-scale.mjs at 100,000
 * workspaces: `search[wildcard-name]` 32 -> 18 ms, `include=effective_tag_bindings` 29 -> 14 ms,
 * `search[exclude-tags]` 107 -> 57 ms.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.createIndex('workspaces_org_seq').on('workspaces').column('organization_id').execute();
}
