import type { Selectable } from 'kysely';
import { notFound } from '../../domain/common/errors.js';
import { newId } from '../../domain/common/ids.js';
import { can, type OrgFacts } from '../../domain/permissions/policy.js';
import { FINAL_STATUSES, type Run, type RunStatus } from '../../domain/runs/run.js';
import {
  APPLYABLE,
  CANCELABLE,
  DISCARDABLE,
  type ExecutedRun,
  type PhaseStatus,
  type ResourceCounts,
} from '../../domain/runs/run-execution.js';
import { forceCancelAvailable } from '../../domain/runs/force-actions.js';
import type { RunsTable } from '../../store/schema.js';
import { type Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { readableWorkspace } from '../workspaces/workspaces-read.js';

/**
 * What the files of executed runs share (`berth serve --execute-runs`): a run row as the API
 * shows it, its status timestamps, its log lines, and the read that checks a run is readable.
 * The queue is run-queue.ts, the user's actions run-actions.ts, the executor's side
 * run-phases.ts, the documents and logs run-documents.ts.
 */

export type RunRow = Selectable<RunsTable>;
export type Phase = 'plan' | 'apply';

export const json = <T>(text: string | null, fallback: T): T => (text ? (JSON.parse(text) as T) : fallback);

function counts(a: number | null, c: number | null, d: number | null): ResourceCounts | null {
  return a === null ? null : { additions: a, changes: c ?? 0, destructions: d ?? 0 };
}

/** The columns every new run starts with, recorded or executed: pending, no phase yet. */
export function newRunColumns(
  workspaceId: string,
  run: { message: string | null; isDestroy: boolean },
  creator: { kind: string | null; id: string | null },
  now: string,
) {
  return {
    id: newId('run'),
    workspace_id: workspaceId,
    status: 'pending',
    message: run.message,
    is_destroy: run.isDestroy ? 1 : 0,
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
    // HCP stamps a new run's creation so (go-tfe's run tests read it); each later status adds its own.
    status_timestamps: JSON.stringify({ 'plan-queueable-at': now }),
  };
}

/** What every run shows, recorded or executed: the row's own columns, without permissions. */
export function runBase(row: RunRow): Omit<Run, 'permissions'> {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    status: row.status as RunStatus,
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
    statusTimestamps: json(row.status_timestamps, {}),
  };
}

export function toExecutedRun(ctx: ServiceContext, row: RunRow, facts: OrgFacts): ExecutedRun {
  const mayRun = can(ctx.actor, 'workspace:queue-run', facts);
  const mayApply = can(ctx.actor, 'workspace:apply-run', facts);
  const status = row.status as RunStatus;
  return {
    ...runBase(row),
    permissions: {
      canApply: mayApply && APPLYABLE.includes(status),
      canCancel: mayRun && CANCELABLE.includes(status),
      canDiscard: mayRun && DISCARDABLE.includes(status),
    },
    mayForceCancel:
      mayRun &&
      row.cancel_requested === 1 &&
      !FINAL_STATUSES.includes(status) &&
      forceCancelAvailable(row.force_cancel_available_at, ctx.clock.now()),
    // Who may cancel may force-cancel (run-actions.ts); force-execute discards runs: who may apply;
    // who may queue runs may comment on them (comments.ts).
    may: { forceCancel: mayRun, forceExecute: mayApply, comment: mayRun },
    execution: {
      configurationVersionId: row.configuration_version_id!,
      planOnly: row.plan_only === 1,
      savePlan: row.save_plan === 1,
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
      forceCancelAvailableAt: row.force_cancel_available_at,
      terraformVersion: row.terraform_version,
      confirmedByUserId: row.confirmed_by_user_id,
    },
  };
}

/** Whether a run row is one berth executes (it has a configuration version). */
export const isExecuted = (row: Pick<RunRow, 'configuration_version_id'>) => row.configuration_version_id !== null;

export function stamped(row: Pick<RunRow, 'status_timestamps'>, at: string, ...statuses: string[]): string {
  const ts = json<Record<string, string>>(row.status_timestamps, {});
  for (const s of statuses) ts[`${s.replace(/_/g, '-')}-at`] = at;
  return JSON.stringify(ts);
}

export async function readableRunRow(ctx: ServiceContext, db: Tx, id: string) {
  const row = await db.selectFrom('runs').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw notFound(`run ${id} not found`);
  const { facts } = await readableWorkspace(ctx, { id: row.workspace_id }, db).catch(() => {
    throw notFound(`run ${id} not found`);
  });
  return { row, facts };
}

export async function appendLogTx(tx: Tx, runId: string, phase: Phase, text: string | Buffer) {
  await tx
    .insertInto('run_logs')
    .values({ run_id: runId, phase, body: Buffer.isBuffer(text) ? text : Buffer.from(text) })
    .execute();
}
