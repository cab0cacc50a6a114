import { conflict, notFound } from '../domain/errors.js';
import type { ParsedState } from '../domain/state.js';
import type { StateFileKind } from '../domain/state-url.js';
import { writeExtractedState } from '../store/state-rows.js';
import { writeTransaction, type Tx } from '../store/transaction.js';
import type { ServiceContext } from './context.js';
import { canStageStateFile, stageStateFile, unstageStateFile } from '../store/state-file-stage.js';
import { checkUploadedJsonState, IN_THREAD_BYTES, parseUploadedState } from './state-parser.js';
import { requireSignedStateUrl, type StateUrlQuery } from './state-urls.js';
import type { StateVersionRow } from './state-versions.js';
import { inOrganizationOf } from './write-scope.js';

export type { StateFileKind } from '../domain/state-url.js';

/** A state file to record: its bytes, or only its size when they were written already (staged). */
export interface StateFileBody {
  bytes: Buffer | null;
  size: number;
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
  if (body.bytes)
    await tx.insertInto('state_files').values({ state_version_id: row.id, kind: 'state', body: body.bytes }).execute();
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
  if (bytes)
    await tx.insertInto('state_files').values({ state_version_id: row.id, kind: 'json-state', body: bytes }).execute();
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

/** 409 unless the version still takes this file. */
function requireTakes(row: StateVersionRow, kind: StateFileKind): void {
  if (kind === 'json-state' ? !takesJsonState(row) : row.status !== 'pending') throw conflict(TAKEN[kind]);
}

/**
 * Receives a version's raw state (`state`, once, while pending) or JSON state (`json-state`,
 * once, while the version is pending or intermediate) through its signed upload URL (404 when
 * the signature is wrong or expired, or the version is gone). The body is read and parsed only
 * then, outside any transaction (state-parser.ts: big files on a worker thread, within bounds);
 * the write transaction only records the result, after checking again that the version still
 * takes the file (a concurrent upload may have won: 409).
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
  requireTakes(before, kind);
  const body = await readBody();
  const size = body.length;
  const checked =
    kind === 'state'
      ? await parseUploadedState(body, before.md5, '/')
      : { state: null, bytes: await checkUploadedJsonState(body, '/') };
  const { state: parsed, bytes } = checked;
  // A big file is written first, on its own (state-file-stage.ts); the transaction records the rest.
  const staged = size > IN_THREAD_BYTES && canStageStateFile(ctx.db);
  if (staged) {
    const outcome = await stageStateFile(ctx.db, id, kind, bytes);
    if (outcome === 'gone') throw notFound('state version not found');
    // Another upload of the same file got there first.
    if (outcome === 'exists') throw conflict(TAKEN[kind]);
  }
  try {
    await writeTransaction(inOrganizationOf(ctx, 'state_versions', id), async (tx) => {
      const row = await versionRow(tx, id);
      if (!row) throw notFound('state version not found');
      requireTakes(row, kind);
      const file = staged ? null : bytes;
      if (parsed) await storeState(tx, row, { bytes: file, size }, parsed, ctx.clock.now().toISOString());
      else await storeJsonState(tx, row, file);
    });
  } catch (err) {
    if (staged) await unstageStateFile(ctx.db, id, kind);
    throw err;
  }
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
