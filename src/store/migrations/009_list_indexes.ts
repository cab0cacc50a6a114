import type { Kysely } from 'kysely';

/**
 * Indexes for workspace lists at scale (see bench/list-scale.mjs): each lets a filter or sort
 * be answered from an index instead of reading every workspace row.
 */
export async function up(db: Kysely<any>): Promise<void> {
  // search[tags] / search[exclude-tags]: the workspaces of a tag, without reading the table. It
  // supersedes the index on tag_id alone.
  await db.schema
    .createIndex('workspace_tags_tag_workspace')
    .on('workspace_tags')
    .columns(['tag_id', 'workspace_id'])
    .execute();
  await db.schema.dropIndex('workspace_tags_tag').execute();
  // filter[tagged]: the workspaces (and projects) bound to a key and value. They supersede the
  // indexes on (key, value).
  await db.schema
    .createIndex('workspace_tag_bindings_key_value_workspace')
    .on('workspace_tag_bindings')
    .columns(['key', 'value', 'workspace_id'])
    .execute();
  await db.schema.dropIndex('workspace_tag_bindings_key_value').execute();
  await db.schema
    .createIndex('project_tag_bindings_key_value_project')
    .on('project_tag_bindings')
    .columns(['key', 'value', 'project_id'])
    .execute();
  await db.schema.dropIndex('project_tag_bindings_key_value').execute();
  // sort=latest-change-at: a page in order without sorting the organization's workspaces.
  await db.schema
    .createIndex('workspaces_org_latest_change')
    .on('workspaces')
    .columns(['organization_id', 'latest_change_at'])
    .execute();
  // search[exclude-tags] and filter[tagged]: the organization's workspaces with their ids and
  // projects, without reading the rows.
  await db.schema
    .createIndex('workspaces_org_project_id')
    .on('workspaces')
    .columns(['organization_id', 'project_id', 'id'])
    .execute();
  // The own retention policies of a page of workspaces.
  await db.schema
    .createIndex('data_retention_policies_workspace')
    .on('data_retention_policies')
    .column('workspace_id')
    .execute();
}
