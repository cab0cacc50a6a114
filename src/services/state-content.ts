import { timingSafeEqual } from 'node:crypto';
import { conflict, invalid, notFound } from '../domain/errors.js';
import { md5Hex, parseState, type ParsedState } from '../domain/state.js';
import { writeExtractedState } from '../store/state-rows.js';
import { writeTransaction, type Tx } from '../store/transaction.js';
import type { ServiceContext } from './context.js';
import type { StateVersionRow } from './state-versions.js';

/** The two files a state version can hold: the raw state and its `terraform show -json` form. */
export type StateFileKind = 'state' | 'json-state';

/** Checks a raw state against the version's md5 and parses it (422 at `pointer` otherwise). */
export function checkState(bytes: Buffer, md5: string, pointer: string): ParsedState {
  if (md5Hex(bytes) !== md5) throw invalid(pointer, 'State does not match its md5 checksum');
  return parseState(bytes, pointer);
}

/** The JSON form of a state must at least be JSON (422 at `pointer` otherwise). */
export function checkJsonState(bytes: Buffer, pointer: string): void {
  try {
    JSON.parse(bytes.toString('utf8'));
  } catch {
    throw invalid(pointer, 'The JSON state must be JSON (the output of `terraform show -json`)');
  }
}

/**
 * Stores a version's raw state as the bytes given, with what berth extracts from it (outputs,
 * resources, counts), and finalizes the version. A version created without a lineage takes the
 * state's own. Returns the row as it now is.
 */
export async function storeState(
  tx: Tx,
  row: StateVersionRow,
  bytes: Buffer,
  parsed: ParsedState,
  now: string,
): Promise<StateVersionRow> {
  await tx.insertInto('state_files').values({ state_version_id: row.id, kind: 'state', body: bytes }).execute();
  await writeExtractedState(tx, row.id, parsed);
  const changes = {
    status: 'finalized' as const,
    finalized_at: now,
    resource_count: parsed.resourceCount,
    size: bytes.length,
    terraform_version: parsed.terraformVersion,
    lineage: row.lineage ?? parsed.lineage,
  };
  await tx.updateTable('state_versions').set(changes).where('id', '=', row.id).execute();
  return { ...row, ...changes, format_version: parsed.formatVersion };
}

/** Stores a version's JSON state (once). */
export async function storeJsonState(tx: Tx, row: StateVersionRow, bytes: Buffer): Promise<StateVersionRow> {
  await tx.insertInto('state_files').values({ state_version_id: row.id, kind: 'json-state', body: bytes }).execute();
  await tx.updateTable('state_versions').set({ has_json_state: 1 }).where('id', '=', row.id).execute();
  return { ...row, has_json_state: 1 };
}

function secretMatches(stored: string, given: string): boolean {
  const a = Buffer.from(stored);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

/** Whether a version still takes its JSON state: not yet given, and the version pending or intermediate. */
export function takesJsonState(row: Pick<StateVersionRow, 'has_json_state' | 'status' | 'intermediate'>): boolean {
  return (
    row.has_json_state === 0 && (row.status === 'pending' || (row.status === 'finalized' && row.intermediate === 1))
  );
}

/**
 * Receives a version's raw state (`state`, once, while pending) or JSON state (`json-state`,
 * once, while the version is pending or intermediate) through its upload URL: the secret in the
 * URL authorizes, like a signed URL. 404 for an unknown version or a wrong secret.
 */
export async function uploadStateFile(
  ctx: Pick<ServiceContext, 'db' | 'clock' | 'commitHook'>,
  id: string,
  kind: StateFileKind,
  secret: string,
  bytes: Buffer,
): Promise<void> {
  await writeTransaction(ctx, async (tx) => {
    const row = await tx.selectFrom('state_versions').selectAll().where('id', '=', id).executeTakeFirst();
    if (!row || !secretMatches(row.url_secret, secret)) throw notFound('state version not found');
    if (kind === 'json-state') {
      if (!takesJsonState(row)) throw conflict('This state version takes no JSON state (any more)');
      checkJsonState(bytes, '/');
      await storeJsonState(tx, row, bytes);
      return;
    }
    if (row.status !== 'pending') throw conflict('This state version has already been uploaded');
    const parsed = checkState(bytes, row.md5, '/');
    await storeState(tx, row, bytes, parsed, ctx.clock.now().toISOString());
  });
}

/**
 * A version's stored file, exactly as uploaded, through its download URL (the secret
 * authorizes). 404 while there is none: pending, soft-deleted or permanently deleted.
 */
export async function downloadStateFile(
  ctx: Pick<ServiceContext, 'db'>,
  id: string,
  kind: StateFileKind,
  secret: string,
): Promise<Buffer> {
  const row = await ctx.db
    .selectFrom('state_versions')
    .leftJoin('state_files', (j) =>
      j.onRef('state_files.state_version_id', '=', 'state_versions.id').on('state_files.kind', '=', kind),
    )
    .select(['state_versions.url_secret', 'state_versions.status', 'state_files.body'])
    .where('state_versions.id', '=', id)
    .executeTakeFirst();
  if (!row || !secretMatches(row.url_secret, secret)) throw notFound('state version not found');
  if (row.status !== 'finalized' || !row.body) throw notFound('this state version has no stored state');
  return Buffer.from(row.body);
}
