import { createHash } from 'node:crypto';
import type { Updateable } from 'kysely';
import { sql, type Kysely } from 'kysely';
import { newStateVersionRow } from '../state/new-state-version-row.js';
import { FINAL_STATUSES, type RunStatus } from '../../domain/runs/run.js';
import { LOG_END, type ResourceCounts } from '../../domain/runs/run-execution.js';
import type { DB, RunsTable } from '../../store/schema.js';
import { writeTransaction } from '../../store/transaction.js';
import { storeState } from '../state/state-content.js';
import { parseUploadedState } from '../state/state-parser.js';
import { appendLogTx, stamped, type Phase, type RunRow } from './run-rows.js';
import { setStatus } from './run-queue.js';
import { finishAssessment } from './assessments.js';
import { queueTriggeredRuns } from './triggered-runs.js';
import { isStale, STALE_MESSAGE } from './stale-saved-plans.js';

/**
 * The executor's side of an executed run (src/runner/port.ts, in process): its logs, whether to
 * stop, the end of a phase, and the workspace's state it reads and writes.
 */

type Db = Kysely<DB>;

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
 * planned_and_saved (a saved plan), apply_queued (auto-apply) or planned (awaits confirmation). Nothing happens to a run that ended
 * meanwhile (force-canceled). An apply that finished queues, in the same transaction, the runs of
 * the workspaces its workspace triggers (triggered-runs.ts); `executesRuns`: whether this instance
 * executes runs itself (false: an agent's apply on a serve without an executor).
 */
export async function finishPhase(
  db: Db,
  runId: string,
  phase: Phase,
  result: PhaseResult,
  now: string,
  executesRuns = true,
) {
  await writeTransaction(db, async (tx) => {
    const row = await tx.selectFrom('runs').selectAll().where('id', '=', runId).executeTakeFirst();
    if (!row || FINAL_STATUSES.includes(row.status as RunStatus)) return;
    await appendLogTx(tx, runId, phase, LOG_END);
    const c = result.counts;
    if (phase === 'plan') {
      await finishAssessment(tx, runId, result, now);
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
      if (row.cancel_requested === 1) {
        // Canceled while it planned, and the plan ended before terraform heard of it: the run ends
        // canceled, as asked, rather than moving on with a cancel that would stop its apply at once.
        await setStatus(tx, row, 'canceled', now, { ...base, apply_status: 'canceled' });
        return;
      }
      const row2 = { ...row, status_timestamps: stamped(row, now, 'planned') };
      if (row.plan_only === 1 || (!result.hasChanges && row.allow_empty_apply === 0)) {
        await setStatus(tx, row2, 'planned_and_finished', now, { ...base, apply_status: 'unreachable' });
      } else if (row.save_plan === 1) {
        // A saved plan waits to be applied, unless the state changed while it planned (stale).
        if (await isStale(tx, row))
          await setStatus(tx, row2, 'discarded', now, {
            ...base,
            apply_status: 'unreachable',
            error_message: STALE_MESSAGE,
          });
        else await setStatus(tx, row2, 'planned_and_saved', now, base);
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
    if (to === 'applied') await queueTriggeredRuns(tx, row, now, executesRuns);
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
 * Records the state an apply wrote as a new state version created by the run: an intermediate one,
 * promoted to current when the run releases the workspace. The state of a run that no longer
 * applies (force-canceled, its terraform killed, while the next run may hold the workspace) is
 * kept in the workspace's history but never made current by itself: it would replace the state
 * the next run works on. `historyOnly`: never current, whatever the run's status (the state an
 * interrupted apply left behind, interrupted-state.ts).
 */
export async function storeRunState(
  db: Db,
  runId: string,
  bytes: Buffer,
  now: string,
  options: { historyOnly?: boolean } = {},
): Promise<string> {
  const md5 = createHash('md5').update(bytes).digest('hex');
  const { state, bytes: body } = await parseUploadedState(bytes, md5, '/state');
  return writeTransaction(db, async (tx) => {
    const run = await tx
      .selectFrom('runs')
      .select(['workspace_id', 'status'])
      .where('id', '=', runId)
      .executeTakeFirstOrThrow();
    const row = newStateVersionRow({
      workspaceId: run.workspace_id,
      serial: state.serial ?? 0,
      lineage: state.lineage ?? null,
      md5,
      intermediate: run.status === 'applying' && !options.historyOnly ? 1 : 0,
      createdBy: { kind: 'runs', id: runId },
      now,
    });
    const { seq: _seq, ...values } = row;
    await tx.insertInto('state_versions').values(values).execute();
    await storeState(tx, row, { bytes: body, size: body.length }, state, now);
    return row.id;
  });
}

/** The executor says it still runs the runs it claimed (those planning or applying). */
export async function heartbeatRuns(db: Db, executor: string, now: string): Promise<void> {
  await writeTransaction(db, async (tx) => {
    await tx
      .updateTable('runs')
      .set({ heartbeat_at: now })
      .where('claimed_by', '=', executor)
      .where('status', 'in', RUNNING)
      .execute();
  });
}

const RUNNING: RunStatus[] = ['planning', 'applying'];

/**
 * Ends the runs whose executor is gone: planning or applying, with no heartbeat for longer than
 * `staleMs` (a run claimed before heartbeats existed counts from its last update). Each ends
 * errored with a message in its log, and releases its workspace (the lock it held), which moves
 * the workspace's queue on. Conditional on the status and heartbeat it read, so a run whose
 * executor beats meanwhile, or that another instance already ended, is left alone. Answers the
 * runs it ended.
 */
export async function recoverInterrupted(db: Db, now: Date, staleMs: number): Promise<string[]> {
  const cutoff = new Date(now.getTime() - staleMs).toISOString();
  const at = now.toISOString();
  const stale = await db
    .selectFrom('runs')
    .select(['id', 'status', 'claimed_by', 'heartbeat_at', 'updated_at'])
    .where('status', 'in', RUNNING)
    .where('configuration_version_id', 'is not', null)
    .where(sql<string>`coalesce(heartbeat_at, updated_at)`, '<', cutoff)
    .execute();
  const ended: string[] = [];
  for (const s of stale) {
    const done = await endInterruptedRun(db, s, at, (row) => {
      const last = row.heartbeat_at ?? row.updated_at;
      return (
        `The run was interrupted: its executor (${row.claimed_by ?? 'unknown'}) stopped while it was ` +
        `${row.status} (last heard of at ${last}); berth ended it errored. Queue a new run.`
      );
    });
    if (done) ended.push(s.id);
  }
  return ended;
}

/**
 * Ends one run whose executor is gone, as `recoverInterrupted` and the agents' liveness
 * (services/agents/agent-liveness.ts) found it (`seen`: still planning or applying, with the same
 * heartbeat): errored, `message(row)` in its log and as its error, its workspace released.
 * Answers whether it ended it (another instance, or a heartbeat, may have come first).
 */
export async function endInterruptedRun(
  db: Db,
  seen: { id: string; status: string; heartbeat_at: string | null },
  at: string,
  message: (row: RunRow) => string,
): Promise<boolean> {
  return writeTransaction(db, async (tx) => {
    const row = await tx.selectFrom('runs').selectAll().where('id', '=', seen.id).executeTakeFirst();
    if (!row || row.status !== seen.status || row.heartbeat_at !== seen.heartbeat_at) return false;
    if (!RUNNING.includes(row.status as RunStatus)) return false;
    const phase: Phase = row.status === 'applying' ? 'apply' : 'plan';
    const text = message(row);
    // Claim the end first: of two instances recovering at once, one ends the run.
    const result = await tx
      .updateTable('runs')
      .set({ status: 'errored', updated_at: at })
      .where('id', '=', row.id)
      .where('status', '=', row.status)
      .executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return false;
    await appendLogTx(tx, row.id, phase, `\n${text}\n${LOG_END}`);
    await setStatus(tx, row, 'errored', at, {
      error_message: text,
      ...(phase === 'plan'
        ? { plan_status: 'errored', plan_finished_at: at, apply_status: 'canceled' }
        : { apply_status: 'errored', apply_finished_at: at }),
    });
    return true;
  });
}
