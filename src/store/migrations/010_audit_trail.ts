import type { Kysely } from 'kysely';

/**
 * The audit trail: one row per change made through the API. No foreign keys on purpose: a record
 * outlives what it names (a deleted workspace, organization or user keeps its history).
 * `organization_id` is the internal id (`org-…`), so that a renamed organization keeps its trail;
 * `organization_name` is the name at the time of the change.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('audit_events')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('occurred_at', 'text', (c) => c.notNull())
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('actor_kind', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor_token_id', 'text')
    .addColumn('actor_name', 'text')
    .addColumn('target_type', 'text')
    .addColumn('target_id', 'text')
    .addColumn('target_name', 'text')
    .addColumn('organization_id', 'text')
    .addColumn('organization_name', 'text')
    .addColumn('workspace_id', 'text')
    .addColumn('request_id', 'text')
    .execute();
  // The list is per organization, newest first (seq order), optionally by actor or workspace, and
  // `filter[since]` narrows on time inside those.
  await db.schema.createIndex('audit_events_org').on('audit_events').columns(['organization_id', 'seq']).execute();
  await db.schema
    .createIndex('audit_events_org_time')
    .on('audit_events')
    .columns(['organization_id', 'occurred_at'])
    .execute();
  await db.schema
    .createIndex('audit_events_org_actor')
    .on('audit_events')
    .columns(['organization_id', 'actor_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('audit_events_org_token')
    .on('audit_events')
    .columns(['organization_id', 'actor_token_id', 'seq'])
    .execute();
  await db.schema
    .createIndex('audit_events_org_workspace')
    .on('audit_events')
    .columns(['organization_id', 'workspace_id', 'seq'])
    .execute();
}
