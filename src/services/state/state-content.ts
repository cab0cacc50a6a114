import type { Kysely } from 'kysely';
import { BerthError, conflict, notFound } from '../../domain/common/errors.js';
import type { ParsedState } from '../../domain/state/state.js';
import type { StateFileKind } from '../../domain/state/state-url.js';
import { writeExtractedState } from '../../store/state-rows.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import type { DB } from '../../store/schema.js';
import { canStageStateFile, stageStateFile, type StageOutcome } from '../../store/state-file-stage.js';
import { checkUploadedJsonState, IN_THREAD_BYTES, parseUploadedState } from './state-parser.js';
import { requireSignedStateUrl, type StateUrlQuery } from './state-urls.js';
import type { StateVersionRow } from './state-versions.js';
import { inOrganizationOf } from '../write-scope.js';

export type { StateFileKind } from '../../domain/state/state-url.js';

/** A state file to record: its bytes, or only its size when they were written already (staged). */
export interface StateFileBody {
  bytes: Buffer | null;
  size: number;
}

/**
 * Writes a version's file in the transaction that records it. A row already there is a staged file
 * never recorded (state-file-stage.ts: an upload that died before recording it, or one under way):
 * the bytes being recorded replace it.
 */
async function insertFile(tx: Tx, id: string, kind: StateFileKind, body: Buffer): Promise<void> {
  await tx
    .insertInto('state_files')
    .values({ state_version_id: id, kind, body })
    .onConflict((oc) =>
      oc.columns(['state_version_id', 'kind']).doUpdateSet((eb) => ({ body: eb.ref('excluded.body') })),
    )
    .execute();
}

/**
 * Stores a version's raw state as the bytes given (unless staged), with what berth extracted from
 * it (outputs, resources, counts), and finalizes the version. A version created without a lineage
 * takes the state's own. Returns the row as it now is.
 */
export async function storeState(
  tx: Tx,
  row: StateVersionRow,
  body: StateFileBody,
  parsed: ParsedState,
  now: string,
): Promise<StateVersionRow> {
  if (body.bytes) await insertFile(tx, row.id, 'state', body.bytes);
  await writeExtractedState(tx, row.id, parsed);
  const changes = {
    status: 'finalized' as const,
    finalized_at: now,
    resource_count: parsed.resourceCount,
    size: body.size,
    terraform_version: parsed.terraformVersion,
    lineage: row.lineage ?? parsed.lineage,
  };
  await tx.updateTable('state_versions').set(changes).where('id', '=', row.id).execute();
  return { ...row, ...changes, format_version: parsed.formatVersion };
}

/** Stores a version's JSON state (once; its bytes null when staged). */
export async function storeJsonState(tx: Tx, row: StateVersionRow, bytes: Buffer | null): Promise<StateVersionRow> {
  if (bytes) await insertFile(tx, row.id, 'json-state', bytes);
  await tx.updateTable('state_versions').set({ has_json_state: 1 }).where('id', '=', row.id).execute();
  return { ...row, has_json_state: 1 };
}

/** Whether a version still takes its JSON state: not yet given, and the version pending or intermediate. */
export function takesJsonState(row: Pick<StateVersionRow, 'has_json_state' | 'status' | 'intermediate'>): boolean {
  return (
    row.has_json_state === 0 && (row.status === 'pending' || (row.status === 'finalized' && row.intermediate === 1))
  );
}

const versionRow = (db: Tx, id: string) =>
  db.selectFrom('state_versions').selectAll().where('id', '=', id).executeTakeFirst();

const TAKEN: Record<StateFileKind, string> = {
  state: 'This state version has already been uploaded',
  'json-state': 'This state version takes no JSON state (any more)',
};

type VersionFacts = Pick<StateVersionRow, 'has_json_state' | 'status' | 'intermediate'>;

/** Whether the version still takes this file. */
function takes(row: VersionFacts, kind: StateFileKind): boolean {
  return kind === 'json-state' ? takesJsonState(row) : row.status === 'pending';
}

/** Whether the version has recorded this file (and still holds it). */
function holds(row: VersionFacts, kind: StateFileKind): boolean {
  if (kind === 'state') return row.status === 'finalized';
  return row.has_json_state === 1 && (row.status === 'pending' || row.status === 'finalized');
}

/**
 * Whether the version has recorded exactly these bytes as this file: the raw state by its md5
 * (checked against the version's before this is asked), the JSON state compared with the stored one.
 */
async function holdsSame(db: Tx, row: StateVersionRow, kind: StateFileKind, bytes: Buffer): Promise<boolean> {
  if (!holds(row, kind)) return false;
  if (kind === 'state') return true;
  const file = await fileOf(db, row.id, kind).select('body').executeTakeFirst();
  return file !== undefined && Buffer.from(file.body).equals(bytes);
}

const fileOf = (db: Tx, id: string, kind: StateFileKind) =>
  db.selectFrom('state_files').where('state_version_id', '=', id).where('kind', '=', kind);

/** The staged file an upload was about to record is gone (discarded meanwhile): the client sends it again. */
function stagedFileLost(): BerthError {
  return new BerthError(
    [{ status: 503, title: 'service unavailable', detail: 'the state file was not kept; upload it again' }],
    { 'Retry-After': '1' },
  );
}

/**
 * Removes a staged file that the version has not recorded (its recording failed, or it cannot be
 * adopted). Best effort: left behind, it is adopted or removed by the next upload or start.
 */
async function discardStaged(db: Kysely<DB>, id: string, kind: StateFileKind): Promise<void> {
  await writeTransaction(db, async (tx) => {
    const row = await versionRow(tx, id);
    // Recorded meanwhile (a concurrent upload of the same bytes adopted it): it is the version's file now.
    if (row && (kind === 'state' ? row.status !== 'pending' : row.has_json_state === 1)) return;
    await tx.deleteFrom('state_files').where('state_version_id', '=', id).where('kind', '=', kind).execute();
  }).catch(() => undefined);
}

/**
 * Receives a version's raw state (`state`, once, while pending) or JSON state (`json-state`,
 * once, while the version is pending or intermediate) through its signed upload URL (404 when
 * the signature is wrong or expired, or the version is gone). The body is read and parsed only
 * then, outside any transaction (state-parser.ts: big files on a worker thread, within bounds);
 * the write transaction only records the result, after checking again that the version still
 * takes the file (a concurrent upload may have won: 409). The same file again, once recorded, is
 * a 200 that changes nothing (a retry whose answer was lost); a different one a 409.
 *
 * A big file is staged first (state-file-stage.ts). A staging of the same bytes that was never
 * recorded (the process died in between) is adopted; `recoverStagedStateFiles` deals with the
 * others when `serve` starts.
 */
export async function uploadStateFile(
  ctx: Pick<ServiceContext, 'db' | 'clock' | 'commitHook'>,
  id: string,
  kind: StateFileKind,
  query: StateUrlQuery,
  readBody: () => Promise<Buffer>,
): Promise<void> {
  await requireSignedStateUrl(ctx, id, kind, 'upload', query);
  const before = await versionRow(ctx.db, id);
  if (!before) throw notFound('state version not found');
  // Taken already: only the same file again may be a 200, so it is read and checked too.
  const again = !takes(before, kind);
  if (again && !holds(before, kind)) throw conflict(TAKEN[kind]);
  const body = await readBody();
  const size = body.length;
  const checked = await (
    kind === 'state'
      ? parseUploadedState(body, before.md5, '/')
      : checkUploadedJsonState(body, '/').then((bytes) => ({ state: null, bytes }))
  ).catch((err: unknown) => {
    // Not the file the version holds (another md5, not JSON): taken already, as before.
    if (again && err instanceof BerthError && err.status === 422) throw conflict(TAKEN[kind]);
    throw err;
  });
  const parsed = checked.state;
  let bytes = checked.bytes;
  if (again) {
    if (await holdsSame(ctx.db, before, kind, bytes)) return;
    throw conflict(TAKEN[kind]);
  }
  // A big file is written first, on its own (state-file-stage.ts); the transaction records the rest.
  const staged = size > IN_THREAD_BYTES && canStageStateFile(ctx.db);
  let outcome: StageOutcome | null = null;
  if (staged) {
    ({ outcome, bytes } = await stageStateFile(ctx.db, id, kind, bytes));
    if (outcome === 'gone') throw notFound('state version not found');
    // Another file is staged for this version, not yet recorded: a concurrent upload's.
    if (outcome === 'exists') throw conflict(TAKEN[kind]);
  }
  try {
    await writeTransaction(inOrganizationOf(ctx, 'state_versions', id), async (tx) => {
      const row = await versionRow(tx, id);
      if (!row) throw notFound('state version not found');
      if (!takes(row, kind)) {
        // A concurrent upload of the same bytes (or serve's start) recorded it first.
        if (await holdsSame(tx, row, kind, bytes)) return;
        throw conflict(TAKEN[kind]);
      }
      if (staged && !(await fileOf(tx, id, kind).select('kind').executeTakeFirst())) throw stagedFileLost();
      const file = staged ? null : bytes;
      if (parsed) await storeState(tx, row, { bytes: file, size }, parsed, ctx.clock.now().toISOString());
      else await storeJsonState(tx, row, file);
    });
  } catch (err) {
    // Only a file this upload staged itself: one adopted may be a concurrent upload's.
    if (outcome === 'staged') await discardStaged(ctx.db, id, kind);
    throw err;
  }
}

/**
 * Staged files that no version recorded: a `serve` killed between staging a big file and
 * recording it (state-file-stage.ts) leaves one behind. Called when `serve` starts: a file the
 * version still takes is checked again as an upload would be (the md5 and the bounds of a raw
 * state, a JSON state's JSON) and recorded (adopted: the version is finalized, or has its JSON
 * state); any other is removed. Nothing was acknowledged for these files, so nothing acknowledged
 * changes. Only SQLite files stage.
 */
export async function recoverStagedStateFiles(
  ctx: Pick<ServiceContext, 'db' | 'clock'>,
): Promise<{ adopted: number; discarded: number }> {
  const done = { adopted: 0, discarded: 0 };
  if (!canStageStateFile(ctx.db)) return done;
  const stagings = await ctx.db
    .selectFrom('state_files')
    .innerJoin('state_versions', 'state_versions.id', 'state_files.state_version_id')
    .select(['state_files.state_version_id as id', 'state_files.kind as kind'])
    .where((eb) =>
      eb.or([
        eb.and([eb('state_files.kind', '=', 'state'), eb('state_versions.status', '=', 'pending')]),
        eb.and([eb('state_files.kind', '=', 'json-state'), eb('state_versions.has_json_state', '=', 0)]),
      ]),
    )
    .execute();
  for (const { id, kind } of stagings) {
    const row = await versionRow(ctx.db, id);
    const file = await fileOf(ctx.db, id, kind).select('body').executeTakeFirst();
    if (!row || !file) continue;
    try {
      if (!takes(row, kind)) throw conflict(TAKEN[kind]);
      const bytes = Buffer.from(file.body);
      const size = bytes.length;
      const parsed = kind === 'state' ? (await parseUploadedState(bytes, row.md5, '/')).state : await checkJson(bytes);
      await writeTransaction(inOrganizationOf(ctx, 'state_versions', id), async (tx) => {
        const now = await versionRow(tx, id);
        // Recorded or removed meanwhile (another serve on this file, an upload).
        if (!now || !takes(now, kind) || !(await fileOf(tx, id, kind).select('kind').executeTakeFirst())) return;
        if (parsed) await storeState(tx, now, { bytes: null, size }, parsed, ctx.clock.now().toISOString());
        else await storeJsonState(tx, now, null);
      });
      done.adopted++;
    } catch (err) {
      // Database trouble: left for the next start. A file that fails its checks: removed.
      if (!(err instanceof BerthError)) throw err;
      await discardStaged(ctx.db, id, kind);
      done.discarded++;
    }
  }
  return done;
}

async function checkJson(bytes: Buffer): Promise<null> {
  await checkUploadedJsonState(bytes, '/');
  return null;
}

/**
 * A version's stored file, exactly as uploaded, through its signed download URL (404 when the
 * signature is wrong or expired). 404 while there is no file: pending, soft-deleted or
 * permanently deleted, or the version (or its workspace) deleted.
 */
export async function downloadStateFile(
  ctx: Pick<ServiceContext, 'db' | 'clock'>,
  id: string,
  kind: StateFileKind,
  query: StateUrlQuery,
): Promise<Buffer> {
  await requireSignedStateUrl(ctx, id, kind, 'download', query);
  const row = await ctx.db
    .selectFrom('state_versions')
    .leftJoin('state_files', (j) =>
      j.onRef('state_files.state_version_id', '=', 'state_versions.id').on('state_files.kind', '=', kind),
    )
    .select(['state_versions.status', 'state_files.body'])
    .where('state_versions.id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound('state version not found');
  if (row.status !== 'finalized' || !row.body) throw notFound('this state version has no stored state');
  return Buffer.from(row.body);
}
