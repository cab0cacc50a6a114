import type { Selectable, Updateable } from 'kysely';
import { invalid, notAuthorized, notFound } from '../../domain/common/errors.js';
import { can } from '../../domain/permissions/policy.js';
import { FINAL_STATUSES, type RunStatus } from '../../domain/runs/run.js';
import { ACTIVE_STATUSES, type ExecutedRun, type RunVariable } from '../../domain/runs/run-execution.js';
import type { ConfigurationVersionsTable, RunsTable } from '../../store/schema.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { promoteIntermediateState } from '../state/state-versions.js';
import { readableWorkspace } from '../workspaces/workspaces-read.js';
import { inWorkspaceOrganization } from '../write-scope.js';
import { json, newRunColumns, stamped, toExecutedRun, type RunRow } from './run-rows.js';
import { endWithoutExecutor, runsAreExecuted } from './run-without-executor.js';
import { claimRouteOf } from './run-claim.js';
import { deleteSavedPlan } from './saved-plans.js';
import { recordMove, recordStampedMove, tokenUser, userOf } from './run-events.js';
import { currentAfterApply } from './current-configuration.js';
import { STALE_MESSAGE } from './stale-saved-plans.js';
import { runTerraformVersion } from '../../domain/runs/run-options.js';
import { becomeLatestRun, currentWhileLocked, lockedBySomeone, startWaitingPlans } from './manual-lock-wait.js';

/** The statuses of a saved-plan run that does not hold its workspace: planning, or waiting to apply. */
const SAVED_WAITING: RunStatus[] = ['plan_queued', 'planning', 'confirmed'];

/**
 * The queue of executed runs: creating them (from the API or an upload), the per-workspace FIFO
 * (one active run per workspace, holding its lock; plan-only runs neither queue nor lock), the
 * status moves that release a workspace and move its queue on. The executor's claim is in run-claim.ts.
 */

export interface ExecutedRunInput {
  workspaceId: string;
  configurationVersionId: string | null;
  message: string | null;
  isDestroy: boolean;
  refresh: boolean;
  refreshOnly: boolean;
  planOnly: boolean;
  /** `save-plan`: plan now, apply later (planned_and_saved; docs/api.md "Saved-plan runs"). */
  savePlan?: boolean;
  autoApply: boolean | null;
  allowEmptyApply: boolean;
  targetAddrs: string[];
  replaceAddrs: string[];
  variables: RunVariable[];
  /** `terraform-version` of a plan-only run (run-options.ts checks it); absent: the workspace's. */
  terraformVersion?: string | null;
}

type NewRun = Omit<RunRow, 'seq'>;

export function newRunRow(
  workspaceId: string,
  input: Omit<ExecutedRunInput, 'workspaceId'>,
  creator: { kind: string | null; id: string | null },
  now: string,
): NewRun {
  return {
    ...newRunColumns(workspaceId, input, creator, now),
    configuration_version_id: input.configurationVersionId,
    plan_only: input.planOnly ? 1 : 0,
    save_plan: input.savePlan ? 1 : 0,
    plan_state_version_id: null,
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
    claimed_by: null,
    cancel_requested: 0,
    heartbeat_at: null,
    terraform_version: input.terraformVersion ?? null,
    confirmed_by_user_id: null,
    force_cancel_available_at: null,
  };
}

/**
 * Inserts a run, makes it the workspace's `latest-run` (not an assessment) and queues it
 * (plan-only and saved-plan runs: straight to plan_queued, as they neither lock nor wait for
 * their workspace while they plan, unless someone holds its lock: a plan-only run then waits
 * pending, manual-lock-wait.ts; others: the workspace's FIFO).
 * On an instance without an executor of its own (`executesRuns` false), only a run that an agent
 * executes (its workspace's effective execution mode is `agent`) is queued; any other ends
 * errored at once instead (run-without-executor.ts).
 */
export async function insertAndQueue(
  tx: Tx,
  row: NewRun,
  now: string,
  executesRuns = true,
  /** Who created it (its `created` event's actor); by default the user of its creator's token. */
  by?: string | null,
  /** A health assessment: never the workspace's latest run, nor stopped by a lock (manual-lock-wait.ts). */
  queue: { assessment?: boolean } = {},
): Promise<void> {
  await tx.insertInto('runs').values(row).execute();
  const creator = by === undefined ? await tokenUser(tx, row.created_by_kind, row.created_by_id) : by;
  await recordMove(tx, row.id, 'pending', now, creator);
  if (!queue.assessment) await becomeLatestRun(tx, row);
  if (!(await runsAreExecuted(tx, row.workspace_id, executesRuns))) return endWithoutExecutor(tx, row, now);
  // A lock someone holds stops every plan: this one waits pending (and may be the current run).
  if (row.plan_only === 1 && !queue.assessment && (await lockedBySomeone(tx, row.workspace_id)))
    return scheduleWorkspace(tx, row.workspace_id, now);
  if (row.plan_only === 1 || row.save_plan === 1) {
    await tx
      .updateTable('runs')
      .set({ status: 'plan_queued', plan_status: 'queued', status_timestamps: stamped(row, now, 'plan_queued') })
      .where('id', '=', row.id)
      .execute();
    await recordMove(tx, row.id, 'plan_queued', now);
  } else {
    // It becomes the workspace's current run when it leaves the queue (scheduleWorkspace), not
    // while it waits behind the active run.
    await scheduleWorkspace(tx, row.workspace_id, now);
  }
}

/**
 * The workspace's queue: when no run of it is active and nobody holds its lock, its oldest waiting
 * run takes the lock (`locked-by` the run) and becomes its current run: a pending run becomes
 * plan_queued; a saved plan confirmed for apply (waiting `confirmed`) becomes apply_queued, unless
 * the workspace's state changed since its plan (then it is discarded, stale, and the next goes).
 * Plan-only runs that waited for someone's lock plan once it is gone; while it is held, the oldest
 * waiting run is the current run (manual-lock-wait.ts).
 */
export async function scheduleWorkspace(tx: Tx, workspaceId: string, now: string): Promise<void> {
  const ws = await tx
    .selectFrom('workspaces')
    .select(['locked', 'locked_by_kind', 'locked_by_id', 'current_state_version_id'])
    .where('id', '=', workspaceId)
    .executeTakeFirst();
  if (!ws) return;
  if (ws.locked === 1) {
    if (ws.locked_by_kind !== 'runs') await currentWhileLocked(tx, workspaceId);
    return;
  }
  await startWaitingPlans(tx, workspaceId, now);
  const active = await tx
    .selectFrom('runs')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('plan_only', '=', 0)
    .where('configuration_version_id', 'is not', null)
    .where('status', 'in', ACTIVE_STATUSES)
    // A saved-plan run holds its workspace only from apply_queued on (SAVED_WAITING: not yet).
    .where((eb) => eb.not(eb.and([eb('save_plan', '=', 1), eb('status', 'in', SAVED_WAITING)])))
    .executeTakeFirst();
  if (active) return;
  const next = await tx
    .selectFrom('runs')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('plan_only', '=', 0)
    .where('configuration_version_id', 'is not', null)
    .where((eb) =>
      eb.or([
        eb.and([eb('status', '=', 'pending'), eb('save_plan', '=', 0)]),
        eb.and([eb('status', '=', 'confirmed'), eb('save_plan', '=', 1)]),
      ]),
    )
    .orderBy('seq')
    .executeTakeFirst();
  if (!next) return;
  const saved = next.save_plan === 1;
  if (saved && next.plan_state_version_id !== ws.current_state_version_id) {
    // Stale: another state became current after its plan (normally discarded then already). The
    // run behind it in the queue goes on.
    await setStatus(tx, next, 'discarded', now, { apply_status: 'unreachable', error_message: STALE_MESSAGE });
    return scheduleWorkspace(tx, workspaceId, now);
  }
  const to = saved ? 'apply_queued' : 'plan_queued';
  await tx
    .updateTable('runs')
    .set({
      status: to,
      ...(saved ? { apply_status: 'queued' } : { plan_status: 'queued' }),
      status_timestamps: stamped(next, now, to),
      updated_at: now,
    })
    .where('id', '=', next.id)
    .execute();
  await recordMove(tx, next.id, to, now);
  await tx
    .updateTable('workspaces')
    .set({
      locked: 1,
      locked_by_kind: 'runs',
      locked_by_id: next.id,
      locked_reason: `Locked by Run ${next.id}`,
      locked_at: now,
      current_run_id: next.id,
      current_run_status: to,
      current_run_created_at: next.created_at,
    })
    .where('id', '=', workspaceId)
    .execute();
}

/** The run queued by an upload with auto-queue-runs, made by whoever created the version. */
export async function queueUploadedRun(
  tx: Tx,
  cv: Selectable<ConfigurationVersionsTable>,
  now: string,
  executesRuns: boolean,
) {
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
  await insertAndQueue(tx, row, now, executesRuns);
}

/** POST /runs with a configuration version (or the workspace's current one, current-configuration.ts). */
export async function createExecutedRun(ctx: ServiceContext, input: ExecutedRunInput): Promise<ExecutedRun> {
  return writeTransaction(inWorkspaceOrganization(ctx, { id: input.workspaceId }), async (tx) => {
    // Taken once the write lock is held: the queue's order (the rows' seq) is then the order of
    // their times, also when this write waited for another process's.
    const now = ctx.clock.now().toISOString();
    const { row: ws, facts } = await readableWorkspace(ctx, { id: input.workspaceId }, tx).catch(() => {
      throw notFound(`workspace ${input.workspaceId} not found`);
    });
    if (!can(ctx.actor, 'workspace:queue-run', facts)) throw notAuthorized('queue runs in this workspace');
    if ((input.isDestroy || input.autoApply) && !can(ctx.actor, 'workspace:apply-run', facts))
      throw notAuthorized('queue runs that apply in this workspace');
    // A workspace in local execution mode runs in the Terraform CLI: a run queued here would wait
    // for an executor that never takes it, holding the workspace's lock (422).
    const route = await claimRouteOf(tx, ws.id);
    if (route?.execution.mode === 'local') throw invalid('/data/relationships/workspace/data/id', route.reason!);
    // As HCP: a workspace whose allow-destroy-plan is false takes no destroy run (422).
    if (input.isDestroy && ws.allow_destroy_plan !== 1)
      throw invalid(
        '/data/attributes/is-destroy',
        `Workspace ${ws.name} (${ws.id}) does not allow destroy plans (its allow-destroy-plan setting is false)`,
      );
    let cvQuery = tx.selectFrom('configuration_versions').selectAll().where('workspace_id', '=', ws.id);
    // Without one named, HCP's "latest configuration version": the current one, never a
    // speculative or provisional (an unapplied saved plan's) version.
    cvQuery = cvQuery.where('id', '=', input.configurationVersionId ?? ws.current_configuration_version_id ?? '');
    const cv = await cvQuery.executeTakeFirst();
    const pointer = '/data/relationships/configuration-version/data/id';
    if (!cv)
      throw invalid(
        pointer,
        input.configurationVersionId
          ? `Configuration version ${input.configurationVersionId} not found in this workspace`
          : 'The workspace has no current configuration version (an uploaded one, neither speculative nor provisional)',
      );
    if (cv.status !== 'uploaded')
      throw invalid(pointer, `Configuration version ${cv.id} is ${cv.status}, not uploaded`);
    const planOnly = input.planOnly || cv.speculative === 1;
    // A saved plan is applied later, by whoever may (never automatically), so never plan-only.
    if (input.savePlan && planOnly)
      throw invalid(
        '/data/attributes/save-plan',
        input.planOnly
          ? 'A run cannot both save its plan and be plan-only'
          : `Configuration version ${cv.id} is speculative: a saved-plan run needs one that can be applied`,
      );
    // The workspace's auto-apply applies only the runs of someone who may apply them: another's
    // run (who may only queue) waits for confirmation by someone who may.
    const mayApply = can(ctx.actor, 'workspace:apply-run', facts);
    const autoApply = input.savePlan ? false : (input.autoApply ?? (ws.auto_apply === 1 && mayApply));
    // Refused unless plan-only, and unless serve's own terraform (when serve executes it) is that version.
    const executesHere = route?.execution.mode === 'remote' && ctx.settings.executesRuns === true;
    const terraformVersion = runTerraformVersion(
      input.terraformVersion,
      planOnly,
      executesHere ? (ctx.settings.terraformVersion ?? null) : null,
    );
    const row = newRunRow(
      ws.id,
      { ...input, configurationVersionId: cv.id, planOnly, autoApply: planOnly ? false : autoApply, terraformVersion },
      { kind: ctx.actor.kind, id: ctx.actor.tokenId },
      now,
    );
    await insertAndQueue(tx, row, now, ctx.settings.executesRuns === true, userOf(ctx.actor));
    const stored = await tx.selectFrom('runs').selectAll().where('id', '=', row.id).executeTakeFirstOrThrow();
    return toExecutedRun(ctx, stored, facts);
  });
}

/** Whether the run wrote a state version still waiting to become current (intermediate). */
async function wroteIntermediateState(tx: Tx, runId: string): Promise<boolean> {
  const sv = await tx
    .selectFrom('state_versions')
    .select('id')
    .where('created_by_kind', '=', 'runs')
    .where('created_by_id', '=', runId)
    .where('intermediate', '=', 1)
    .executeTakeFirst();
  return sv !== undefined;
}

/** Whether the run's apply phase ever started (its claim stamps `applying-at`). */
const reachedApply = (row: RunRow) => 'applying-at' in json<Record<string, string>>(row.status_timestamps, {});

/**
 * Keeps the workspace's intermediate state versions in its history but never makes them current.
 * For a run that held the workspace and never applied: only an apply writes state (a plan's
 * token may not, policy.ts `runCan`), so whatever waits to become current was not written by one
 * (say, by a plan's token before that rule) and must not replace the state, discarded run or not.
 */
async function abandonIntermediateState(tx: Tx, workspaceId: string): Promise<void> {
  await tx
    .updateTable('state_versions')
    .set({ intermediate: 0 })
    .where('workspace_id', '=', workspaceId)
    .where('intermediate', '=', 1)
    .execute();
}

/** Releases the workspace lock a run holds (promoting the state its apply wrote) and queues the next run. */
async function release(tx: Tx, row: RunRow, to: RunStatus, now: string): Promise<void> {
  const ws = await tx.selectFrom('workspaces').selectAll().where('id', '=', row.workspace_id).executeTakeFirst();
  if (!ws) return;
  if (ws.locked === 1 && ws.locked_by_kind === 'runs' && ws.locked_by_id === row.id) {
    if (reachedApply(row)) await promoteIntermediateState(tx, ws.id, false, undefined, now);
    else await abandonIntermediateState(tx, ws.id);
    await tx
      .updateTable('workspaces')
      .set({ locked: 0, locked_by_kind: null, locked_by_id: null, locked_reason: null, locked_at: null })
      .where('id', '=', ws.id)
      .execute();
  } else if (ws.locked === 0 && (await wroteIntermediateState(tx, row.id))) {
    // Its lock was force-unlocked while it went on: the state its apply wrote still becomes
    // current (nobody holds the workspace; one who does makes it current when they unlock).
    await promoteIntermediateState(tx, ws.id, false, undefined, now);
  }
  if (ws.current_run_id === row.id)
    await tx.updateTable('workspaces').set({ current_run_status: to }).where('id', '=', ws.id).execute();
  await scheduleWorkspace(tx, row.workspace_id, now);
}

/**
 * Moves a run to `to`, releasing its workspace when the run ends. The move is an event of the run
 * (run-events.ts), by `by` (null: berth itself), after one for each status it stamped on the way;
 * answers the move's event (an action attaches its comment there).
 */
export async function setStatus(
  tx: Tx,
  row: RunRow,
  to: RunStatus,
  now: string,
  extra: Updateable<RunsTable> = {},
  by: string | null = null,
): Promise<string> {
  const before = await tx.selectFrom('runs').select('status_timestamps').where('id', '=', row.id).executeTakeFirst();
  const timestamps = stamped(row, now, to);
  await tx
    .updateTable('runs')
    .set({ status: to, updated_at: now, status_timestamps: timestamps, ...extra })
    .where('id', '=', row.id)
    .execute();
  const after = typeof extra.status_timestamps === 'string' ? extra.status_timestamps : timestamps;
  const eventId = await recordStampedMove(
    tx,
    row.id,
    { before: before?.status_timestamps ?? null, after },
    to,
    now,
    by,
  );
  if (FINAL_STATUSES.includes(to)) {
    // An ended run is never applied: its saved plan goes (saved-plans.ts).
    await deleteSavedPlan(tx, row.id);
    // A provisional configuration version (a saved plan's) becomes current once applied.
    if (to === 'applied') await currentAfterApply(tx, row);
    await release(tx, row, to, now);
  } else
    await tx
      .updateTable('workspaces')
      .set({ current_run_status: to })
      .where('id', '=', row.workspace_id)
      .where('current_run_id', '=', row.id)
      .execute();
  return eventId;
}
