import type { Kysely } from 'kysely';
import { isPostgres } from '../kind.js';

const COLUMNS = [
  'seq',
  'id',
  'occurred_at',
  'action',
  'actor_kind',
  'actor_id',
  'actor_token_id',
  'actor_name',
  'target_type',
  'target_id',
  'target_name',
  'organization_id',
  'organization_name',
  'workspace_id',
  'request_id',
] as const;

/** The secondary indexes of migration 010 that the audit trail's reads do not need. */
const UNUSED_INDEXES = [
  'audit_events_org_time',
  'audit_events_org_actor',
  'audit_events_org_token',
  'audit_events_org_workspace',
];

/**
 * A leaner audit trail: every write inserts one record, and each index, the unique constraint on
 * `id` and SQLite's AUTOINCREMENT (its `sqlite_sequence` row) cost that insert a page or more
 * in the commit. Kept: `(organization_id, seq)`, which every read of the trail uses (one
 * organization, newest first; the filters on time, actor and workspace are checked along it).
 * Records are completed by `seq` (their integer key), so `id` needs no index; ids are random and
 * unique by construction (domain/common/ids.ts). Without AUTOINCREMENT a new `seq` is the highest plus
 * one, still increasing since only the oldest records are ever removed.
 *
 * SQLite cannot drop a column's constraint or AUTOINCREMENT in place: the table is rebuilt (its
 * rows keep their `seq`). PostgreSQL keeps its identity column and drops the constraint and the
 * indexes.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (isPostgres(db)) {
    for (const index of UNUSED_INDEXES) await db.schema.dropIndex(index).execute();
    await db.schema.alterTable('audit_events').dropConstraint('audit_events_id_key').execute();
    return;
  }
  await db.schema
    .createTable('audit_events_lean')
    .addColumn('seq', 'integer', (c) => c.primaryKey())
    .addColumn('id', 'text', (c) => c.notNull())
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
  await db
    .insertInto('audit_events_lean')
    .columns([...COLUMNS])
    .expression(db.selectFrom('audit_events').select([...COLUMNS]))
    .execute();
  await db.schema.dropTable('audit_events').execute();
  await db.schema.alterTable('audit_events_lean').renameTo('audit_events').execute();
  await db.schema.createIndex('audit_events_org').on('audit_events').columns(['organization_id', 'seq']).execute();
}
