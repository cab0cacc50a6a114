import type { Kysely } from 'kysely';
import { parseState } from '../../domain/state/state.js';
import { writeExtractedState } from '../state-rows.js';

/**
 * States as the bytes that were uploaded, and what berth extracts from them when a version is
 * finalized:
 * - `state_files`: the raw state (`kind` 'state') and the `terraform show -json` form (`kind`
 *   'json-state') of each version, as bytes (`blob`; PostgreSQL's `bytea`). It replaces
 *   `state_bodies`, which kept the state as text (a body that was not UTF-8 came back altered);
 *   its rows move over unchanged, as the UTF-8 bytes of their text.
 * - `state_version_outputs`: the outputs of each version (ids `wsout-…`), in the state's order.
 * - `state_version_resources`: one row per resource instance of each version (ids `wsr-…`).
 * - `state_versions.format_version` (the state file's own `version`) and `has_json_state`.
 *
 * The versions stored before it get their outputs and resources here, extracted as berth does
 * for new uploads (domain/state/state.ts).
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('state_versions').addColumn('format_version', 'integer').execute();
  await db.schema
    .alterTable('state_versions')
    .addColumn('has_json_state', 'integer', (c) => c.notNull().defaultTo(0))
    .execute();
  await db.schema
    .createTable('state_files')
    .addColumn('state_version_id', 'text', (c) => c.notNull().references('state_versions.id').onDelete('cascade'))
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('body', 'blob', (c) => c.notNull())
    .addPrimaryKeyConstraint('state_files_pkey', ['state_version_id', 'kind'])
    .execute();

  await db.schema
    .createTable('state_version_outputs')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('state_version_id', 'text', (c) => c.notNull().references('state_versions.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('sensitive', 'integer', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    // JSON texts: the output's type as the state declares it (null when it declares none), and its value.
    .addColumn('detailed_type', 'text')
    .addColumn('value', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('state_version_outputs_version')
    .on('state_version_outputs')
    .columns(['state_version_id', 'seq'])
    .execute();

  await db.schema
    .createTable('state_version_resources')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('state_version_id', 'text', (c) => c.notNull().references('state_versions.id').onDelete('cascade'))
    // The state's module path (`module.a.module.b`), 'root' for the root module.
    .addColumn('module', 'text', (c) => c.notNull())
    .addColumn('mode', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('provider', 'text', (c) => c.notNull())
    // The instance key as it appears between brackets in an address (`0`, `"a"`), or null.
    .addColumn('index_key', 'text')
    .execute();
  await db.schema
    .createIndex('state_version_resources_version')
    .on('state_version_resources')
    .columns(['state_version_id', 'seq'])
    .execute();

  let after: string | null = null;
  for (;;) {
    let page = db.selectFrom('state_bodies').selectAll().orderBy('state_version_id').limit(200);
    if (after !== null) page = page.where('state_version_id', '>', after);
    const rows = (await page.execute()) as { state_version_id: string; body: string }[];
    if (rows.length === 0) break;
    await db
      .insertInto('state_files')
      .values(rows.map((r) => ({ state_version_id: r.state_version_id, kind: 'state', body: Buffer.from(r.body) })))
      .execute();
    for (const r of rows) await extract(db, r.state_version_id, r.body);
    after = rows[rows.length - 1].state_version_id;
  }
  await db.schema.dropTable('state_bodies').execute();
}

/** The outputs and resource instances of a state stored before this migration. */
async function extract(db: Kysely<any>, stateVersionId: string, body: string): Promise<void> {
  let parsed;
  try {
    parsed = parseState(body, '/');
  } catch {
    return; // not a JSON object: nothing to extract
  }
  await writeExtractedState(db, stateVersionId, parsed);
}
