import { createHash } from 'node:crypto';
import type { Selectable, Updateable } from 'kysely';
import type { Kysely } from 'kysely';
import { conflict, invalid, notAuthorized, notFound } from '../domain/errors.js';
import { newId, randomTail } from '../domain/ids.js';
import { can, type OrgFacts } from '../domain/policy.js';
import { FINAL_STATUSES, type RunStatus } from '../domain/run.js';
import {
  ACTIVE_STATUSES,
  APPLYABLE,
  CANCELABLE,
  DISCARDABLE,
  LOG_END,
  LOG_START,
  LOG_URL_TTL_SECONDS,
  runUrlValid,
  signedRunQuery,
  type ExecutedRun,
  type PhaseStatus,
  type ResourceCounts,
  type RunVariable,
} from '../domain/run-execution.js';
import { literalLimit } from '../store/literal-limit.js';
import type { ConfigurationVersionsTable, DB, RunsTable } from '../store/schema.js';
import { writeTransaction, type Tx } from '../store/transaction.js';
import type { ServiceContext } from './context.js';
import { storeState } from './state-content.js';
import { parseUploadedState } from './state-parser.js';
import { signingKey } from './state-urls.js';
import { promoteIntermediateState, type StateVersionRow } from './state-versions.js';
import { readableWorkspace } from './workspaces-read.js';
import { inOrganizationOf, inWorkspaceOrganization } from './write-scope.js';

/**
 * Runs that berth executes (`berth serve --execute-runs`): creating them from a configuration
 * version, the user's actions (apply, discard, cancel, force-cancel), the per-workspace FIFO
 * queue (one active run per workspace, holding its lock; plan-only runs neither queue nor lock),
 * and the operations of the executor's port (src/runner/port.ts): claim, logs, phase ends, state.
 */

type RunRow = Selectable<RunsTable>;
export type Phase = 'plan' | 'apply';

export interface ExecutedRunInput {
  workspaceId: string;
  configurationVersionId: string | null;
  message: string | null;
  isDestroy: boolean;
  refresh: boolean;
  refreshOnly: boolean;
  planOnly: boolean;
  autoApply: boolean | null;
  allowEmptyApply: boolean;
  targetAddrs: string[];
  replaceAddrs: string[];
  variables: RunVariable[];
}

const json = <T>(text: string | null, fallback: T): T => (text ? (JSON.parse(text) as T) : fallback);

function counts(a: number | null, c: number | null, d: number | null): ResourceCounts | null {
  return a === null ? null : { additions: a, changes: c ?? 0, destructions: d ?? 0 };
}

export function toExecutedRun(ctx: ServiceContext, row: RunRow, facts: OrgFacts): ExecutedRun {
  const mayRun = can(ctx.actor, 'workspace:queue-run', facts);
  const mayApply = can(ctx.actor, 'workspace:apply-run', facts);
  const status = row.status as RunStatus;
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    status,
    message: row.message,
    isDestroy: row.is_destroy === 1,
    source: row.source,
    planStartedAt: row.plan_started_at,
    planFinishedAt: row.plan_finished_at,
    applyStartedAt: row.apply_started_at,
    applyFinishedAt: row.apply_finished_at,
    errorMessage: row.error_message,
    policyCheckFailed: row.policy_check_failed === 1,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    permissions: {
      canApply: mayApply && APPLYABLE.includes(status),
      canCancel: mayRun && CANCELABLE.includes(status),
      canDiscard: mayRun && DISCARDABLE.includes(status),
    },
    mayForceCancel: mayRun && row.cancel_requested === 1 && !FINAL_STATUSES.includes(status),
    execution: {
      configurationVersionId: row.configuration_version_id!,
      planOnly: row.plan_only === 1,
      refresh: row.refresh === 1,
      refreshOnly: row.refresh_only === 1,
      autoApply: row.auto_apply === 1,
      allowEmptyApply: row.allow_empty_apply === 1,
      targetAddrs: json(row.target_addrs, []),
      replaceAddrs: json(row.replace_addrs, []),
      variables: json(row.variables, []),
      hasChanges: row.has_changes === 1,
      planStatus: (row.plan_status ?? 'pending') as PhaseStatus,
      applyStatus: (row.apply_status ?? 'pending') as PhaseStatus,
      plan: counts(row.plan_additions, row.plan_changes, row.plan_destructions),
      apply: counts(row.apply_additions, row.apply_changes, row.apply_destructions),
      statusTimestamps: json(row.status_timestamps, {}),
      cancelRequested: row.cancel_requested === 1,
    },
  };
}

/** Whether a run row is one berth executes (it has a configuration version). */
export const isExecuted = (row: Pick<RunRow, 'configuration_version_id'>) => row.configuration_version_id !== null;

function stamped(row: Pick<RunRow, 'status_timestamps'>, at: string, ...statuses: string[]): string {
  const ts = json<Record<string, string>>(row.status_timestamps, {});
  for (const s of statuses) ts[`${s.replace(/_/g, '-')}-at`] = at;
  return JSON.stringify(ts);
}

type NewRun = Omit<RunRow, 'seq'>;

function newRunRow(
  workspaceId: string,
  input: Omit<ExecutedRunInput, 'workspaceId'>,
  creator: { kind: string | null; id: string | null },
  now: string,
): NewRun {
  return {
    id: newId('run'),
    workspace_id: workspaceId,
    status: 'pending',
    message: input.message,
    is_destroy: input.isDestroy ? 1 : 0,
    source: 'tfe-api',
    plan_started_at: null,
    plan_finished_at: null,
    apply_started_at: null,
    apply_finished_at: null,
    error_message: null,
    policy_check_failed: 0,
    created_by_kind: creator.kind,
    created_by_id: creator.id,
    created_at: now,
    updated_at: now,
    configuration_version_id: input.configurationVersionId,
    plan_only: input.planOnly ? 1 : 0,
    refresh: input.refresh ? 1 : 0,
    refresh_only: input.refreshOnly ? 1 : 0,
    auto_apply: input.autoApply ? 1 : 0,
    allow_empty_apply: input.allowEmptyApply ? 1 : 0,
    target_addrs: input.targetAddrs.length ? JSON.stringify(input.targetAddrs) : null,
    replace_addrs: input.replaceAddrs.length ? JSON.stringify(input.replaceAddrs) : null,
    variables: input.variables.length ? JSON.stringify(input.variables) : null,
    has_changes: 0,
    plan_status: 'pending',
    apply_status: 'pending',
    plan_additions: null,
    plan_changes: null,
    plan_destructions: null,
    apply_additions: null,
    apply_changes: null,
    apply_destructions: null,
    status_timestamps: JSON.stringify({}),
    claimed_by: null,
    cancel_requested: 0,
  };
}

/** Inserts a run and queues it (plan-only: straight to plan_queued; others: the workspace's FIFO). */
async function insertAndQueue(tx: Tx, row: NewRun, now: string): Promise<void> {
  await tx.insertInto('runs').values(row).execute();
  if (row.plan_only === 1) {
    await tx
      .updateTable('runs')
      .set({ status: 'plan_queued', plan_status: 'queued', status_timestamps: stamped(row, now, 'plan_queued') })
      .where('id', '=', row.id)
      .execute();
  } else {
    // It becomes the workspace's current run when it leaves the queue (scheduleWorkspace), not
    // while it waits behind the active run.
    await scheduleWorkspace(tx, row.workspace_id, now);
  }
}

/**
 * The workspace's queue: when no run of it is active and nobody holds its lock, its oldest
 * pending run becomes plan_queued, takes the lock (`locked-by` the run) and is its current run.
 */
export async function scheduleWorkspace(tx: Tx, workspaceId: string, now: string): Promise<void> {
  const ws = await tx
    .selectFrom('workspaces')
    .select(['locked', 'locked_by_kind', 'locked_by_id'])
    .where('id', '=', workspaceId)
    .executeTakeFirst();
  if (!ws || ws.locked === 1) return;
  const active = await tx
    .selectFrom('runs')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('plan_only', '=', 0)
    .where('configuration_version_id', 'is not', null)
    .where('status', 'in', ACTIVE_STATUSES)
    .executeTakeFirst();
  if (active) return;
  const next = await tx
    .selectFrom('runs')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('status', '=', 'pending')
    .where('plan_only', '=', 0)
    .where('configuration_version_id', 'is not', null)
    .orderBy('seq')
    .executeTakeFirst();
  if (!next) return;
  await tx
    .updateTable('runs')
    .set({
      status: 'plan_queued',
      plan_status: 'queued',
      status_timestamps: stamped(next, now, 'plan_queued'),
      updated_at: now,
    })
    .where('id', '=', next.id)
    .execute();
  await tx
    .updateTable('workspaces')
    .set({
      locked: 1,
      locked_by_kind: 'runs',
      locked_by_id: next.id,
      locked_reason: `Locked by Run ${next.id}`,
      locked_at: now,
      current_run_id: next.id,
      current_run_status: 'plan_queued',
      current_run_created_at: next.created_at,
    })
    .where('id', '=', workspaceId)
    .execute();
}

/** The run queued by an upload with auto-queue-runs, made by whoever created the version. */
export async function queueUploadedRun(tx: Tx, cv: Selectable<ConfigurationVersionsTable>, now: string) {
  const row = newRunRow(
    cv.workspace_id,
    {
      configurationVersionId: cv.id,
      message: 'Queued automatically after a configuration upload',
      isDestroy: false,
      refresh: true,
      refreshOnly: false,
      planOnly: cv.speculative === 1,
      autoApply: false,
      allowEmptyApply: false,
      targetAddrs: [],
      replaceAddrs: [],
      variables: [],
    },
    { kind: cv.created_by_kind, id: cv.created_by_id },
    now,
  );
  await insertAndQueue(tx, row, now);
}

/** POST /runs with a configuration version (or the workspace's newest uploaded one). */
export async function createExecutedRun(ctx: ServiceContext, input: ExecutedRunInput): Promise<ExecutedRun> {
  const now = ctx.clock.now().toISOString();
  return writeTransaction(inWorkspaceOrganization(ctx, { id: input.workspaceId }), async (tx) => {
    const { row: ws, facts } = await readableWorkspace(ctx, { id: input.workspaceId }, tx).catch(() => {
      throw notFound(`workspace ${input.workspaceId} not found`);
    });
    if (!can(ctx.actor, 'workspace:queue-run', facts)) throw notAuthorized('queue runs in this workspace');
    if ((input.isDestroy || input.autoApply) && !can(ctx.actor, 'workspace:apply-run', facts))
      throw notAuthorized('queue runs that apply in this workspace');
    let cvQuery = tx.selectFrom('configuration_versions').selectAll().where('workspace_id', '=', ws.id);
    cvQuery = input.configurationVersionId
      ? cvQuery.where('id', '=', input.configurationVersionId)
      : cvQuery.where('status', '=', 'uploaded').orderBy('seq', 'desc');
    const cv = await cvQuery.executeTakeFirst();
    const pointer = '/data/relationships/configuration-version/data/id';
    if (!cv)
      throw invalid(
        pointer,
        input.configurationVersionId
          ? `Configuration version ${input.configurationVersionId} not found in this workspace`
          : 'The workspace has no uploaded configuration version',
      );
    if (cv.status !== 'uploaded')
      throw invalid(pointer, `Configuration version ${cv.id} is ${cv.status}, not uploaded`);
    const planOnly = input.planOnly || cv.speculative === 1;
    const autoApply = input.autoApply ?? ws.auto_apply === 1;
    const row = newRunRow(
      ws.id,
      { ...input, configurationVersionId: cv.id, planOnly, autoApply: planOnly ? false : autoApply },
      { kind: ctx.actor.kind, id: ctx.actor.tokenId },
      now,
    );
    await insertAndQueue(tx, row, now);
    const stored = await tx.selectFrom('runs').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
    return toExecutedRun(ctx, stored, facts);
  });
}

async function readableRunRow(ctx: ServiceContext, db: Tx, id: string) {
  const row = await db.selectFrom('runs').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(`run ${id} not found`);
  const { facts } = await readableWorkspace(ctx, { id: row.workspace_id }, db).catch(() => {
    throw notFound(`run ${id} not found`);
  });
  return { row, facts };
}

/** The executed run, or null when the run is a recorded one (404 when unreadable). */
export async function getExecutedRun(ctx: ServiceContext, id: string): Promise<ExecutedRun | null> {
  const { row, facts } = await readableRunRow(ctx, ctx.db, id);
  return isExecuted(row) ? toExecutedRun(ctx, row, facts) : null;
}

/** 404 unless the run (recorded or executed) is readable. */
export async function readableRun(ctx: ServiceContext, id: string): Promise<void> {
  await readableRunRow(ctx, ctx.db, id);
}

/** Releases the workspace lock a run holds (promoting the state it wrote) and queues the next run. */
async function release(tx: Tx, row: RunRow, to: RunStatus, now: string): Promise<void> {
  const ws = await tx.selectFrom('workspaces').selectAll().where('id', '=', row.workspace_id).executeTakeFirst();
  if (!ws) return;
  if (ws.locked === 1 && ws.locked_by_kind === 'runs' && ws.locked_by_id === row.id) {
    await promoteIntermediateState(tx, ws.id);
    await tx
      .updateTable('workspaces')
      .set({ locked: 0, locked_by_kind: null, locked_by_id: null, locked_reason: null, locked_at: null })
      .where('id', '=', ws.id)
      .execute();
  }
  if (ws.current_run_id === row.id)
    await tx.updateTable('workspaces').set({ current_run_status: to }).where('id', '=', ws.id).execute();
  await scheduleWorkspace(tx, row.workspace_id, now);
}

async function setStatus(tx: Tx, row: RunRow, to: RunStatus, now: string, extra: Updateable<RunsTable> = {}) {
  await tx
    .updateTable('runs')
    .set({ status: to, updated_at: now, status_timestamps: stamped(row, now, to), ...extra })
    .where('id', '=', row.id)
    .execute();
  if (FINAL_STATUSES.includes(to)) await release(tx, row, to, now);
  else
    await tx
      .updateTable('workspaces')
      .set({ current_run_status: to })
      .where('id', '=', row.workspace_id)
      .where('current_run_id', '=', row.id)
      .execute();
}

async function appendLogTx(tx: Tx, runId: string, phase: Phase, text: string | Buffer) {
  await tx
    .insertInto('run_logs')
    .values({ run_id: runId, phase, body: Buffer.isBuffer(text) ? text : Buffer.from(text) })
    .execute();
}

export type RunAction = 'apply' | 'discard' | 'cancel' | 'force-cancel';

/** A user's action on an executed run; 409 when its status does not allow it. */
export async function actOnRun(ctx: ServiceContext, id: string, action: RunAction): Promise<void> {
  const now = ctx.clock.now().toISOString();
  await writeTransaction(inOrganizationOf(ctx, 'runs', id), async (tx) => {
    const { row, facts } = await readableRunRow(ctx, tx, id);
    const status = row.status as RunStatus;
    const refuse = () => conflict(`Run ${id} is ${status}: it cannot be ${ACTION_PAST[action]}`);
    if (action === 'apply') {
      if (!can(ctx.actor, 'workspace:apply-run', facts)) throw notAuthorized('apply runs in this workspace');
      if (!APPLYABLE.includes(status)) throw refuse();
      await tx
        .updateTable('runs')
        .set({ status_timestamps: stamped(row, now, 'confirmed') })
        .where('id', '=', id)
        .execute();
      const confirmed = { ...row, status_timestamps: stamped(row, now, 'confirmed') };
      await setStatus(tx, confirmed, 'apply_queued', now, { apply_status: 'queued' });
      return;
    }
    if (!can(ctx.actor, 'workspace:queue-run', facts)) throw notAuthorized('change runs in this workspace');
    if (action === 'discard') {
      if (!DISCARDABLE.includes(status)) throw refuse();
      await setStatus(tx, row, 'discarded', now, { apply_status: 'canceled' });
      return;
    }
    if (action === 'cancel') {
      if (!CANCELABLE.includes(status)) throw refuse();
      // Not yet started: canceled at once. Running: the executor interrupts terraform and ends it.
      if (row.claimed_by === null || status === 'confirmed' || status === 'apply_queued') {
        await setStatus(tx, row, 'canceled', now, {
          plan_status: row.plan_status === 'finished' ? 'finished' : 'canceled',
          apply_status: 'canceled',
        });
      } else {
        await tx.updateTable('runs').set({ cancel_requested: 1, updated_at: now }).where('id', '=', id).execute();
      }
      return;
    }
    // force-cancel: only after a cancel was asked, while the run still goes.
    if (row.cancel_requested !== 1 || FINAL_STATUSES.includes(status)) throw refuse();
    const phase: Phase = status === 'applying' ? 'apply' : 'plan';
    await appendLogTx(tx, id, phase, `\nThe run was force-canceled.\n${LOG_END}`);
    await setStatus(tx, row, 'force_canceled', now, {
      [`${phase}_status`]: 'canceled',
      ...(phase === 'plan' ? { plan_finished_at: now } : { apply_finished_at: now }),
    });
  });
}

const ACTION_PAST: Record<RunAction, string> = {
  apply: 'applied',
  discard: 'discarded',
  cancel: 'canceled',
  'force-cancel': 'force-canceled',
};

// --- plans, applies and their logs ---------------------------------------------------------

export const tailOf = (id: string) => id.replace(/^(run|plan|apply)-/, '');

/** The run behind `plan-…` or `apply-…` (404 unless readable and executed). */
export async function runOfPhase(ctx: ServiceContext, phaseId: string): Promise<ExecutedRun> {
  const runId = `run-${tailOf(phaseId)}`;
  const run = await getExecutedRun(ctx, runId).catch(() => null);
  if (!run) throw notFound(`${phaseId} not found`);
  return run;
}

export const LOG_PURPOSE = 'run-log';

/** The signed path segment of a phase's log URL: `<expires>/<signature>` (go-tfe replaces the query). */
export async function logUrlPath(ctx: Pick<ServiceContext, 'db' | 'clock'>, phaseId: string): Promise<string> {
  const key = await signingKey(ctx.db);
  const q = new URLSearchParams(signedRunQuery(key, LOG_PURPOSE, phaseId, ctx.clock.now(), LOG_URL_TTL_SECONDS));
  return `${q.get('expires')}/${q.get('signature')}`;
}

/** A phase's log so far, checked against its signed URL (404 otherwise). */
export async function readLog(
  ctx: Pick<ServiceContext, 'db' | 'clock'>,
  phaseId: string,
  expires: string,
  signature: string,
): Promise<Buffer> {
  const key = await signingKey(ctx.db);
  if (!runUrlValid(key, LOG_PURPOSE, phaseId, expires, signature, ctx.clock.now()))
    throw notFound('log not found (or its URL has expired)');
  const phase: Phase = phaseId.startsWith('apply-') ? 'apply' : 'plan';
  // A run deleted since (with its workspace or organization) has no log, not an empty one.
  const run = await ctx.db
    .selectFrom('runs')
    .select('configuration_version_id')
    .where('id', '=', `run-${tailOf(phaseId)}`)
    .executeTakeFirst();
  if (!run || !isExecuted(run)) throw notFound('log not found (or its URL has expired)');
  const rows = await ctx.db
    .selectFrom('run_logs')
    .select('body')
    .where('run_id', '=', `run-${tailOf(phaseId)}`)
    .where('phase', '=', phase)
    .orderBy('seq')
    .execute();
  return Buffer.concat(rows.map((r) => Buffer.from(r.body)));
}

// --- the executor's port, in process -----------------------------------------------------

/** What the executor gets when it claims a run: what to do and with what. */
export interface ClaimedRun {
  runId: string;
  workspaceId: string;
  phase: Phase;
  configurationVersionId: string;
  isDestroy: boolean;
  refresh: boolean;
  refreshOnly: boolean;
  planOnly: boolean;
  targetAddrs: string[];
  replaceAddrs: string[];
  variables: RunVariable[];
}

type Db = Kysely<DB>;

/**
 * Claims the oldest queued phase: a plan_queued run (-> planning) or an apply_queued one
 * (-> applying). The update is conditional on the status it read, so two executors sharing a
 * PostgreSQL database never both claim a run. First, workspaces whose queue can move on do.
 */
export async function claimRun(db: Db, executor: string, now: string): Promise<ClaimedRun | null> {
  await writeTransaction(db, async (tx) => {
    const waiting = await tx
      .selectFrom('runs')
      .select('workspace_id')
      .distinct()
      .where('status', '=', 'pending')
      .where('configuration_version_id', 'is not', null)
      .limit(literalLimit(100))
      .execute();
    for (const w of waiting) await scheduleWorkspace(tx, w.workspace_id, now);
  });
  for (let attempt = 0; attempt < 5; attempt++) {
    const next = await db
      .selectFrom('runs')
      .selectAll()
      .where('status', 'in', ['plan_queued', 'apply_queued'])
      .where('configuration_version_id', 'is not', null)
      .orderBy('seq')
      .executeTakeFirst();
    if (!next) return null;
    const phase: Phase = next.status === 'plan_queued' ? 'plan' : 'apply';
    const to: RunStatus = phase === 'plan' ? 'planning' : 'applying';
    const claimed = await writeTransaction(db, async (tx) => {
      const result = await tx
        .updateTable('runs')
        .set({
          status: to,
          claimed_by: executor,
          updated_at: now,
          status_timestamps: stamped(next, now, to),
          ...(phase === 'plan'
            ? { plan_status: 'running', plan_started_at: now }
            : { apply_status: 'running', apply_started_at: now }),
        })
        .where('id', '=', next.id)
        .where('status', '=', next.status)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) !== 1) return false;
      await tx
        .updateTable('workspaces')
        .set({ current_run_status: to })
        .where('id', '=', next.workspace_id)
        .where('current_run_id', '=', next.id)
        .execute();
      await appendLogTx(tx, next.id, phase, LOG_START);
      return true;
    });
    if (!claimed) continue;
    return {
      runId: next.id,
      workspaceId: next.workspace_id,
      phase,
      configurationVersionId: next.configuration_version_id!,
      isDestroy: next.is_destroy === 1,
      refresh: next.refresh === 1,
      refreshOnly: next.refresh_only === 1,
      planOnly: next.plan_only === 1,
      targetAddrs: json(next.target_addrs, []),
      replaceAddrs: json(next.replace_addrs, []),
      variables: json(next.variables, []),
    };
  }
  return null;
}

export async function appendRunLog(db: Db, runId: string, phase: Phase, chunk: Buffer): Promise<void> {
  await writeTransaction(db, (tx) => appendLogTx(tx, runId, phase, chunk));
}

/** Whether the run's executor should stop: a cancel was asked, or the run already ended (force-cancel). */
export async function stopRequested(db: Db, runId: string): Promise<'cancel' | 'force' | null> {
  const row = await db
    .selectFrom('runs')
    .select(['status', 'cancel_requested'])
    .where('id', '=', runId)
    .executeTakeFirst();
  if (!row || FINAL_STATUSES.includes(row.status as RunStatus)) return 'force';
  return row.cancel_requested === 1 ? 'cancel' : null;
}

export interface PhaseResult {
  outcome: 'finished' | 'errored' | 'canceled';
  errorMessage?: string;
  counts?: ResourceCounts;
  hasChanges?: boolean;
}

/**
 * Ends a phase: closes its log (ETX) and moves the run on, in one transaction. A plan that
 * finished: planned_and_finished (plan-only, or no changes without allow-empty-apply),
 * apply_queued (auto-apply) or planned (awaits confirmation). Nothing happens to a run that ended
 * meanwhile (force-canceled).
 */
export async function finishPhase(db: Db, runId: string, phase: Phase, result: PhaseResult, now: string) {
  await writeTransaction(db, async (tx) => {
    const row = await tx.selectFrom('runs').selectAll().where('id', '=', runId).executeTakeFirst();
    if (!row || FINAL_STATUSES.includes(row.status as RunStatus)) return;
    await appendLogTx(tx, runId, phase, LOG_END);
    const c = result.counts;
    if (phase === 'plan') {
      const base: Updateable<RunsTable> = {
        plan_finished_at: now,
        plan_status: result.outcome,
        ...(c ? { plan_additions: c.additions, plan_changes: c.changes, plan_destructions: c.destructions } : {}),
        has_changes: result.hasChanges ? 1 : 0,
        error_message: result.errorMessage ?? null,
      };
      if (result.outcome !== 'finished') {
        await setStatus(tx, row, result.outcome, now, { ...base, apply_status: 'canceled' });
        return;
      }
      const row2 = { ...row, status_timestamps: stamped(row, now, 'planned') };
      if (row.plan_only === 1 || (!result.hasChanges && row.allow_empty_apply === 0)) {
        await setStatus(tx, row2, 'planned_and_finished', now, { ...base, apply_status: 'unreachable' });
      } else if (row.auto_apply === 1) {
        await setStatus(tx, { ...row2, status_timestamps: stamped(row2, now, 'confirmed') }, 'apply_queued', now, {
          ...base,
          apply_status: 'queued',
        });
      } else {
        await setStatus(tx, row, 'planned', now, base);
      }
      return;
    }
    const to: RunStatus = result.outcome === 'finished' ? 'applied' : result.outcome;
    await setStatus(tx, row, to, now, {
      apply_finished_at: now,
      apply_status: result.outcome,
      error_message: result.errorMessage ?? null,
      ...(c ? { apply_additions: c.additions, apply_changes: c.changes, apply_destructions: c.destructions } : {}),
    });
  });
}

/** The raw state of the run's workspace now (null: none yet), for the run's local backend. */
export async function workspaceState(db: Db, runId: string): Promise<Buffer | null> {
  const row = await db
    .selectFrom('runs')
    .innerJoin('workspaces', 'workspaces.id', 'runs.workspace_id')
    .innerJoin('state_files', 'state_files.state_version_id', 'workspaces.current_state_version_id')
    .select('state_files.body')
    .where('runs.id', '=', runId)
    .where('state_files.kind', '=', 'state')
    .executeTakeFirst();
  return row ? Buffer.from(row.body) : null;
}

/**
 * Records the state an apply wrote as a new state version created by the run (an intermediate
 * one, promoted to current when the run releases the workspace).
 */
export async function storeRunState(db: Db, runId: string, bytes: Buffer, now: string): Promise<string> {
  const md5 = createHash('md5').update(bytes).digest('hex');
  const { state, bytes: body } = await parseUploadedState(bytes, md5, '/state');
  return writeTransaction(db, async (tx) => {
    const run = await tx.selectFrom('runs').select(['workspace_id']).where('id', '=', runId).executeTakeFirstOrThrow();
    const row: StateVersionRow = {
      seq: 0,
      id: newId('sv'),
      workspace_id: run.workspace_id,
      serial: state.serial ?? 0,
      lineage: state.lineage ?? null,
      md5,
      status: 'pending',
      intermediate: 1,
      resource_count: 0,
      size: 0,
      terraform_version: null,
      url_secret: randomTail(32),
      created_by_kind: 'runs',
      created_by_id: runId,
      created_at: now,
      finalized_at: null,
      format_version: null,
      has_json_state: 0,
    };
    const { seq: _seq, ...values } = row;
    await tx.insertInto('state_versions').values(values).execute();
    await storeState(tx, row, { bytes: body, size: body.length }, state, now);
    return row.id;
  });
}
