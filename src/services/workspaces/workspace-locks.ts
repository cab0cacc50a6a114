import { BerthError, conflict, notAuthorized } from '../../domain/common/errors.js';
import {
  ALREADY_LOCKED_BY_YOU,
  alreadyLocked,
  holderOf,
  lockedByOther,
  NOT_LOCKED_FORCE,
  NOT_LOCKED_UNLOCK,
  sameHolder,
  STILL_PENDING,
  type LockHolder,
} from '../../domain/workspaces/lock.js';
import { can, type OrgFacts } from '../../domain/permissions/policy.js';
import type { Workspace } from '../../domain/workspaces/workspace.js';
import { memoQuery } from '../../store/memo-query.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { promoteIntermediateState } from '../state/state-versions.js';
import {
  findWorkspaceRow,
  readableWorkspace,
  workspaceOf,
  type WorkspaceRef,
  type WorkspaceRow,
} from './workspaces-read.js';
import { inWorkspaceOrganization } from '../write-scope.js';
import { LIMIT_ONE } from '../../store/literal-limit.js';
import { endRunLosingItsLock } from '../runs/force-unlocked-run.js';
import { userOf } from '../runs/run-events.js';

/** Seconds a client should wait before retrying an unlock refused with 503. */
export const UNLOCK_RETRY_AFTER = 2;

function holderOfRow(row: WorkspaceRow): LockHolder | null {
  if (row.locked !== 1 || !row.locked_by_kind || !row.locked_by_id) return null;
  return { kind: row.locked_by_kind as LockHolder['kind'], id: row.locked_by_id };
}

/** Loads the workspace for a lock operation: 404 unless readable and `action` is allowed. */
async function lockable(ctx: ServiceContext, tx: Tx, ref: WorkspaceRef, action: 'workspace:lock' | 'workspace:update') {
  const found = await readableWorkspace(ctx, ref, tx);
  if (!can(ctx.actor, action, found.facts)) {
    throw notAuthorized(action === 'workspace:lock' ? 'lock or unlock this workspace' : 'force-unlock this workspace');
  }
  return found;
}

const updateLock = memoQuery(
  (
    db,
    p: {
      id: string;
      locked: number;
      reason: string | null;
      kind: string | null;
      holder: string | null;
      at: string | null;
    },
  ) =>
    db
      .updateTable('workspaces')
      .set({
        locked: p.locked,
        locked_reason: p.reason,
        locked_by_kind: p.kind,
        locked_by_id: p.holder,
        locked_at: p.at,
      })
      .where('id', '=', p.id),
);

/** Sets the lock columns, and gives the row as it now is. */
async function setLock(
  tx: Tx,
  row: WorkspaceRow,
  holder: LockHolder | null,
  reason: string | null,
  now: string,
): Promise<WorkspaceRow> {
  const lock = {
    locked: holder ? 1 : 0,
    locked_reason: holder ? reason : null,
    locked_by_kind: holder?.kind ?? null,
    locked_by_id: holder?.id ?? null,
    locked_at: holder ? now : null,
  };
  await updateLock.execute(tx, {
    id: row.id,
    locked: lock.locked,
    reason: lock.locked_reason,
    kind: lock.locked_by_kind,
    holder: lock.locked_by_id,
    at: lock.locked_at,
  });
  return { ...row, ...lock };
}

/**
 * The answer of a lock operation: the workspace as its transaction left it (the row read at its
 * start with the lock columns it set), without reading it and its permissions again; re-read
 * inside the transaction when unlocking also promoted a state version (which changes the row).
 * Its tags, metrics and policy are read in the transaction too (`workspaceOf(ctx, tx, ...)`):
 * what the transaction commits is exactly what is answered, and on SQLite the reads run on the
 * writer connection, whose page cache stays warm (the main connection's cache is emptied
 * each time another connection commits).
 */
async function answer(
  tx: Tx,
  found: { row: WorkspaceRow; facts: OrgFacts },
  reread: boolean,
): Promise<{ row: WorkspaceRow; facts: OrgFacts }> {
  if (!reread) return found;
  return { row: (await findWorkspaceRow(tx, { id: found.row.id }))!, facts: found.facts };
}

/** The workspace's latest intermediate state version, if any (the one unlock promotes when finalized). */
const latestIntermediate = memoQuery((db, p: { id: string }) =>
  db
    .selectFrom('state_versions')
    .select(['id', 'seq', 'status', 'resource_count', 'created_at'])
    .where('workspace_id', '=', p.id)
    .where('intermediate', '=', 1)
    .orderBy('seq', 'desc')
    .limit(LIMIT_ONE),
);

/**
 * unlocked -> locked by the caller (200); locked -> 409. The check and the change happen in one
 * write transaction, so of many concurrent attempts exactly one wins.
 */
export async function lockWorkspace(ctx: ServiceContext, ref: WorkspaceRef, reason: string): Promise<Workspace> {
  return writeTransaction(inWorkspaceOrganization(ctx, ref), async (tx) => {
    const { row, facts } = await lockable(ctx, tx, ref, 'workspace:lock');
    const current = holderOfRow(row);
    if (current)
      throw conflict(sameHolder(current, holderOf(ctx.actor)) ? ALREADY_LOCKED_BY_YOU : alreadyLocked(current));
    const locked = await setLock(tx, row, holderOf(ctx.actor), reason, ctx.clock.now().toISOString());
    return workspaceOf(ctx, tx, locked, facts);
  });
}

/**
 * locked by the caller -> unlocked (200), promoting the latest finalized intermediate state
 * version to current; 409 when unlocked or held by someone else; 503 while the latest
 * intermediate state version is still pending.
 */
export async function unlockWorkspace(ctx: ServiceContext, ref: WorkspaceRef): Promise<Workspace> {
  return writeTransaction(inWorkspaceOrganization(ctx, ref), async (tx) => {
    const { row, facts } = await lockable(ctx, tx, ref, 'workspace:lock');
    const current = holderOfRow(row);
    if (!current) throw conflict(NOT_LOCKED_UNLOCK);
    if (!sameHolder(current, holderOf(ctx.actor))) throw conflict(lockedByOther(current));
    const latest = await latestIntermediate.first(tx, { id: row.id });
    if (latest?.status === 'pending') {
      throw new BerthError([{ status: 503, title: 'service unavailable', detail: STILL_PENDING }], {
        'Retry-After': String(UNLOCK_RETRY_AFTER),
      });
    }
    // Versions are pending or finalized: the latest, when not pending, is the one to promote.
    const promoted = await promoteIntermediateState(tx, row.id, false, latest ?? null, ctx.clock.now().toISOString());
    const unlocked = await setLock(tx, row, null, null, ctx.clock.now().toISOString());
    const done = await answer(tx, { row: unlocked, facts }, promoted);
    return workspaceOf(ctx, tx, done.row, done.facts);
  });
}

/**
 * Admins release any lock (200); 409 when unlocked. It does not wait for pending uploads: the
 * latest finalized intermediate state version, if any, becomes current, pending ones stay
 * intermediate (documented in docs/api.md).
 */
export async function forceUnlockWorkspace(ctx: ServiceContext, ref: WorkspaceRef): Promise<Workspace> {
  return writeTransaction(inWorkspaceOrganization(ctx, ref), async (tx) => {
    const found = await lockable(ctx, tx, ref, 'workspace:update');
    const holder = holderOfRow(found.row);
    if (!holder) throw conflict(NOT_LOCKED_FORCE);
    const now = ctx.clock.now().toISOString();
    // A run's lock: the run ends without applying (force-unlocked-run.ts), and its end may
    // already release the lock; read the workspace again after it.
    if (holder.kind === 'runs') await endRunLosingItsLock(tx, holder.id, now, userOf(ctx.actor));
    const row = (await findWorkspaceRow(tx, { id: found.row.id })) ?? found.row;
    const facts = found.facts;
    // Released by the run's end (and perhaps taken by the run queued next, which is not the lock
    // that was asked to go): answered as it is.
    const still = holderOfRow(row);
    if (!still || !sameHolder(still, holder)) return workspaceOf(ctx, tx, row, facts);
    const promoted = await promoteIntermediateState(tx, row.id, true, undefined, now);
    const unlocked = await setLock(tx, row, null, null, now);
    const done = await answer(tx, { row: unlocked, facts }, promoted);
    return workspaceOf(ctx, tx, done.row, done.facts);
  });
}

/** Whether the actor holds the workspace's lock (state versions may only be written then). */
export function holdsLock(ctx: ServiceContext, row: WorkspaceRow): boolean {
  const current = holderOfRow(row);
  return current !== null && sameHolder(current, holderOf(ctx.actor));
}
