import type { Kysely } from 'kysely';
import { newId } from '../domain/common/ids.js';
import type { ParsedState } from '../domain/state/state.js';

/** Rows per insert statement (both engines cap the parameters of one statement). */
const CHUNK = 500;

// eslint-disable-next-line @typescript-eslint/no-explicit-any -- also run by migration 016, on the schema of its own time
async function insertChunked(db: Kysely<any>, table: string, rows: Record<string, unknown>[]): Promise<void> {
  for (let i = 0; i < rows.length; i += CHUNK)
    await db
      .insertInto(table)
      .values(rows.slice(i, i + CHUNK))
      .execute();
}

/**
 * Stores what was extracted from a version's state: its outputs (`wsout-…`) and resource
 * instances (`wsr-…`), in the state's order, and its format version. Used when a version is
 * finalized, and by migration 016 for the versions stored before it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- also run by migration 016, on the schema of its own time
export async function writeExtractedState(db: Kysely<any>, stateVersionId: string, parsed: ParsedState): Promise<void> {
  await db
    .updateTable('state_versions')
    .set({ format_version: parsed.formatVersion })
    .where('id', '=', stateVersionId)
    .execute();
  await insertChunked(
    db,
    'state_version_outputs',
    parsed.outputs.map((o) => ({
      id: newId('wsout'),
      state_version_id: stateVersionId,
      name: o.name,
      sensitive: o.sensitive ? 1 : 0,
      type: o.type,
      detailed_type: o.detailedTypeJson,
      value: o.valueJson,
    })),
  );
  await insertChunked(
    db,
    'state_version_resources',
    parsed.instances.map((i) => ({
      id: newId('wsr'),
      state_version_id: stateVersionId,
      module: i.module,
      mode: i.mode,
      type: i.type,
      name: i.name,
      provider: i.provider,
      index_key: i.indexKey,
    })),
  );
}
