import type { Kysely } from 'kysely';

/**
 * State rollback (issue 45, item 3): `PATCH /workspaces/:id/state-versions` makes a new state
 * version from an earlier one (services/state/state-rollback.ts). `state_versions.rollback_of_id`
 * names that earlier version, for HCP Terraform's `rollback-state-version` relationship and the
 * audit trail; NULL for every other version (all those stored before this migration). No foreign
 * key: the source may be pruned or deleted later and its id stays, as a record of what was
 * restored (and `db copy`, which copies a table's rows in key order, needs no order among them).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('state_versions').addColumn('rollback_of_id', 'text').execute();
}
