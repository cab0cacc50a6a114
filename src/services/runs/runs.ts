import type { Selectable, Updateable } from 'kysely';
import { conflict, notAuthorized, notFound } from '../../domain/common/errors.js';
import { holderOf, lockedByOther, sameHolder, type LockHolder } from '../../domain/workspaces/lock.js';
import type { PageRequest, Paged } from '../../domain/common/paging.js';
import { can, type OrgFacts } from '../../domain/permissions/policy.js';
import { canMove, FINAL_STATUSES, LOCKING_STATUSES, type Run, type RunStatus } from '../../domain/runs/run.js';
import type { RunsTable } from '../../store/schema.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { isExecuted, newRunColumns, runBase, stamped, toExecutedRun } from './run-rows.js';
import { withExecutors } from './run-executors.js';
import { promoteIntermediateState } from '../state/state-versions.js';
import { readableWorkspace, type WorkspaceRef, type WorkspaceRow } from '../workspaces/workspaces-read.js';
import { inOrganizationOf } from '../write-scope.js';
import { notAnAssessment } from './assessment-runs.js';
import { commentOnEvent } from './comments.js';
import { recordMove, userOf } from './run-events.js';
import { inPage } from '../../store/literal-limit.js';
import { runConditions, type RunListFilter } from './run-list-filters.js';

type RunRow = Selectable<RunsTable>;

export interface RunInput {
  workspaceId: string;
  message: string | null;
  isDestroy: boolean;
  /** The report it is created with moves it through an apply (APPLY_MOVES): needs permission to apply. */
  applies?: boolean;
}

/** The moves of a recorded run that only whoever may apply runs may make. */
export const APPLY_MOVES: RunStatus[] = ['confirmed', 'apply_queued', 'applying'];

/** What an executor reports with a status change (berth extension `actions/report`). */
export interface RunReport {
  status: RunStatus;
  /** When the change happened (default: now). Lets importers record past runs with real durations. */
  at?: string;
  errorMessage?: string | null;
  policyCheckFailed?: boolean;
  /** A comment given with the move (actions/apply, discard, cancel): a comment of its event. */
  comment?: string | null;
}

/** A recorded run as the caller sees it (`facts` aimed at its workspace). */
export function toRun(ctx: ServiceContext, row: RunRow, facts: OrgFacts): Run {
  const mayRun = can(ctx.actor, 'workspace:queue-run', facts);
  const mayApply = can(ctx.actor, 'workspace:apply-run', facts);
  const status = row.status as RunStatus;
  return {
    ...runBase(row),
    permissions: {
      canApply: mayApply && canMove(status, 'apply_queued'),
      canCancel: mayRun && canMove(status, 'canceled'),
      canDiscard: mayRun && canMove(status, 'discarded'),
    },
  };
}

/** The run and its workspace, 404 unless the caller may read the workspace. */
async function readableRun(ctx: ServiceContext, db: Tx, id: string) {
  const row = await db.selectFrom('runs').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(`run ${id} not found`);
  const { row: ws, facts } = await readableWorkspace(ctx, { id: row.workspace_id }, db).catch(() => {
    throw notFound(`run ${id} not found`);
  });
  return { row, ws, facts };
}

export async function createRun(ctx: ServiceContext, input: RunInput): Promise<Run> {
  const { row, facts } = await writeTransaction(inOrganizationOf(ctx, 'workspaces', input.workspaceId), async (tx) => {
    // Taken once the write lock is held: the queue's order (the rows' seq) is then the order of
    // their times, also when this write waited for another process's.
    const now = ctx.clock.now().toISOString();
    const { row: ws, facts } = await readableWorkspace(ctx, { id: input.workspaceId }, tx).catch(() => {
      throw notFound(`workspace ${input.workspaceId} not found`);
    });
    if (!can(ctx.actor, 'workspace:queue-run', facts)) throw notAuthorized('queue runs in this workspace');
    // A destroy run applies by nature: it needs permission to apply.
    if (input.isDestroy && !can(ctx.actor, 'workspace:apply-run', facts))
      throw notAuthorized('queue destroy runs in this workspace');
    // Checked before anything is made: refused half-way, the run would stay behind.
    if (input.applies && !can(ctx.actor, 'workspace:apply-run', facts))
      throw notAuthorized('record runs that apply in this workspace');
    // A recorded run: the columns of executed runs (run-execution.ts) keep their defaults.
    const row = {
      seq: 0,
      ...newRunColumns(ws.id, input, { kind: ctx.actor.kind, id: ctx.actor.tokenId }, now),
    } as RunRow;
    const { seq: _seq, ...values } = row;
    await tx.insertInto('runs').values(values).execute();
    await recordMove(tx, row.id, 'pending', now, userOf(ctx.actor));
    await tx
      .updateTable('workspaces')
      .set({
        current_run_id: row.id,
        current_run_status: 'pending',
        current_run_created_at: now,
        latest_run_id: row.id,
      })
      .where('id', '=', ws.id)
      .execute();
    return { row, facts };
  });
  return toRun(ctx, row, facts);
}

export async function getRun(ctx: ServiceContext, id: string): Promise<Run> {
  const { row, facts } = await readableRun(ctx, ctx.db, id);
  return toRun(ctx, row, facts);
}

/** The runs of a workspace, newest first. */
export async function listRuns(
  ctx: ServiceContext,
  ref: WorkspaceRef,
  page: PageRequest,
  filter: RunListFilter = {},
): Promise<Paged<Run>> {
  const { row: ws, facts } = await readableWorkspace(ctx, ref);
  // Health assessment runs are not listed (assessment-runs.ts).
  let base = ctx.db.selectFrom('runs').where('workspace_id', '=', ws.id).where(notAnAssessment);
  for (const condition of runConditions(filter)) base = base.where(condition);
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base.selectAll().orderBy('seq', 'desc').$call(inPage(page)).execute();
  // A run berth executes is listed with what it executed (its options, phases and counts) and
  // where (`executedBy`: the page's agents are named in one query).
  const executed = await withExecutors(
    ctx,
    rows.filter(isExecuted).map((r) => ({ run: toExecutedRun(ctx, r, facts), claimedBy: r.claimed_by })),
  );
  const byId = new Map(executed.map((r) => [r.id, r]));
  const items = rows.map((r) => byId.get(r.id) ?? toRun(ctx, r, facts));
  return { items, total: Number(n), page };
}

function heldBy(ws: WorkspaceRow, holder: LockHolder): boolean {
  return sameHolder({ kind: ws.locked_by_kind as LockHolder['kind'], id: ws.locked_by_id ?? '' }, holder);
}

function runHolds(ws: WorkspaceRow, runId: string): boolean {
  return ws.locked === 1 && ws.locked_by_kind === 'runs' && ws.locked_by_id === runId;
}

/**
 * Moves a run to `report.status`, recording phase times. A run that starts planning or applying
 * takes the workspace lock (409 when someone else holds it); a run that ends releases it,
 * promoting the state it wrote, as an unlock does. When the caller itself holds the workspace
 * lock (a person recording history while they keep the workspace locked), the run works under
 * that lock: it neither takes nor releases it.
 */
export async function transitionRun(ctx: ServiceContext, id: string, report: RunReport): Promise<Run> {
  return transitionRunThrough(ctx, id, [report]);
}

/**
 * Makes several moves of one run (a report's phases, then its status) in one transaction: refused
 * at any of them (a move the run cannot make, a permission, a lock held by someone else), none is
 * made, so the run, its workspace's lock and the audit trail stay exactly as they were.
 */
export async function transitionRunThrough(ctx: ServiceContext, id: string, reports: RunReport[]): Promise<Run> {
  const { row, facts } = await writeTransaction(inOrganizationOf(ctx, 'runs', id), async (tx) => {
    let last: { row: RunRow; facts: OrgFacts } | undefined;
    for (const report of reports) last = await moveRun(ctx, tx, id, report);
    if (!last) throw conflict(`Run ${id}: nothing to report`);
    return last;
  });
  return toRun(ctx, row, facts);
}

/** One move of `transitionRunThrough`, inside its transaction (it sees the moves made before it). */
async function moveRun(ctx: ServiceContext, tx: Tx, id: string, report: RunReport) {
  const { row, ws, facts } = await readableRun(ctx, tx, id);
  if (!can(ctx.actor, 'workspace:queue-run', facts)) throw notAuthorized('change runs in this workspace');
  // A run berth executes moves by its executor (run-execution.ts); a report would fake its progress.
  if (row.configuration_version_id !== null)
    throw conflict(`Run ${id} is executed by berth: its progress cannot be reported`);
  const from = row.status as RunStatus;
  const to = report.status;
  // Confirming or applying needs permission to apply; the rest of a run's life, to plan.
  if (APPLY_MOVES.includes(to) && !can(ctx.actor, 'workspace:apply-run', facts)) {
    throw notAuthorized('apply runs in this workspace');
  }
  if (!canMove(from, to)) throw conflict(`Run ${id} cannot move from ${from} to ${to}`);
  const at = report.at ?? ctx.clock.now().toISOString();
  const changes: Updateable<RunsTable> = {
    status: to,
    updated_at: ctx.clock.now().toISOString(),
    // Every status the run goes through keeps its time (`status-timestamps`), as an executed run's.
    status_timestamps: stamped(row, at, to),
  };
  if (to === 'planning') changes.plan_started_at = at;
  if (from === 'planning') changes.plan_finished_at = at;
  if (to === 'applying') changes.apply_started_at = at;
  if (from === 'applying') changes.apply_finished_at = at;
  if (report.errorMessage !== undefined) changes.error_message = report.errorMessage;
  if (report.policyCheckFailed !== undefined) changes.policy_check_failed = report.policyCheckFailed ? 1 : 0;

  const locking = LOCKING_STATUSES.includes(to);
  const heldByCaller = ws.locked === 1 && heldBy(ws, holderOf(ctx.actor));
  if (locking && !runHolds(ws, id) && !heldByCaller) {
    if (ws.locked === 1) {
      throw conflict(lockedByOther({ kind: ws.locked_by_kind as LockHolder['kind'], id: ws.locked_by_id ?? '' }));
    }
    await tx
      .updateTable('workspaces')
      .set({
        locked: 1,
        locked_by_kind: 'runs',
        locked_by_id: id,
        locked_reason: `Locked by Run ${id}`,
        locked_at: at,
      })
      .where('id', '=', ws.id)
      .execute();
  }
  if ((FINAL_STATUSES.includes(to) || !locking) && runHolds(ws, id)) {
    await promoteIntermediateState(tx, ws.id, false, undefined, ctx.clock.now().toISOString());
    await tx
      .updateTable('workspaces')
      .set({ locked: 0, locked_by_kind: null, locked_by_id: null, locked_reason: null, locked_at: null })
      .where('id', '=', ws.id)
      .execute();
  }
  await tx.updateTable('runs').set(changes).where('id', '=', id).execute();
  // The move is an event of the run, by whoever reported it, at the time it happened.
  const by = userOf(ctx.actor);
  const eventId = await recordMove(tx, id, to, at, by);
  if (report.comment) await commentOnEvent(tx, { id: eventId, runId: id, at, authorUserId: by }, report.comment);
  if (ws.current_run_id === id)
    await tx.updateTable('workspaces').set({ current_run_status: to }).where('id', '=', ws.id).execute();
  return { row: { ...row, ...changes }, facts };
}
