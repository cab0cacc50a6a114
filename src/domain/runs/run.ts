/**
 * Runs: HCP Terraform's run statuses, and what berth keeps of each run (statuses, phase times,
 * failures) for locks, sorting and metrics. berth executes runs itself (src/runner, its agents)
 * or records what an outside executor reports (docs/api.md, "Executed runs").
 */
export const RUN_STATUSES = [
  'pending',
  'plan_queued',
  'planning',
  'planned',
  'cost_estimated',
  'policy_checked',
  'policy_soft_failed',
  'policy_override',
  'confirmed',
  'planned_and_finished',
  'planned_and_saved',
  'apply_queued',
  'applying',
  'applied',
  'discarded',
  'errored',
  'canceled',
  'force_canceled',
] as const;
export type RunStatus = (typeof RUN_STATUSES)[number];

/**
 * Statuses HCP Terraform's runs pass through that berth's never do (its run tasks, cost estimation,
 * VCS fetching and queueing stages): a client may filter on them (`filter[status]`), which then
 * matches no run of berth's.
 */
export const HCP_ONLY_RUN_STATUSES = [
  'cost_estimating',
  'fetching',
  'fetching_completed',
  'policy_checking',
  'post_plan_awaiting_decision',
  'post_plan_completed',
  'post_plan_running',
  'pre_apply_running',
  'pre_apply_completed',
  'pre_plan_completed',
  'pre_plan_running',
  'queuing',
  'queuing_apply',
] as const;

/** Statuses in which a run holds the workspace lock (its plan or apply is running or awaits confirmation). */
export const LOCKING_STATUSES: RunStatus[] = [
  'planning',
  'planned',
  'cost_estimated',
  'policy_checked',
  'policy_soft_failed',
  'policy_override',
  'confirmed',
  'apply_queued',
  'applying',
];

/**
 * A saved-plan run (`save-plan`) that planned with changes waits in `planned_and_saved`: neither
 * locking nor final. It holds no lock and is not its workspace's current run until it is applied.
 */
export const FINAL_STATUSES: RunStatus[] = [
  'applied',
  'planned_and_finished',
  'discarded',
  'errored',
  'canceled',
  'force_canceled',
];

/** The statuses a run may move to from each status (reports and actions alike). */
const NEXT: Record<RunStatus, RunStatus[]> = {
  pending: ['plan_queued', 'planning', 'errored', 'canceled', 'discarded'],
  plan_queued: ['planning', 'errored', 'canceled'],
  // planning -> discarded: a saved plan whose workspace's state changed while it planned (stale).
  planning: ['planned', 'planned_and_finished', 'planned_and_saved', 'discarded', 'errored', 'canceled'],
  planned: [
    'cost_estimated',
    'policy_checked',
    'policy_soft_failed',
    'confirmed',
    'apply_queued',
    'applying',
    'discarded',
    'errored',
    'canceled',
  ],
  cost_estimated: [
    'policy_checked',
    'policy_soft_failed',
    'confirmed',
    'apply_queued',
    'applying',
    'discarded',
    'errored',
    'canceled',
  ],
  policy_checked: ['confirmed', 'apply_queued', 'applying', 'discarded', 'errored', 'canceled'],
  policy_soft_failed: ['policy_override', 'discarded', 'errored'],
  policy_override: ['confirmed', 'apply_queued', 'applying', 'discarded', 'errored', 'canceled'],
  // confirmed -> discarded: a saved plan waiting in its workspace's queue went stale.
  confirmed: ['apply_queued', 'applying', 'discarded', 'errored', 'canceled'],
  planned_and_finished: [],
  planned_and_saved: ['confirmed', 'apply_queued', 'discarded', 'errored', 'canceled'],
  apply_queued: ['applying', 'errored', 'canceled'],
  applying: ['applied', 'errored', 'canceled'],
  applied: [],
  discarded: [],
  errored: [],
  canceled: [],
  force_canceled: [],
};

export function canMove(from: RunStatus, to: RunStatus): boolean {
  return NEXT[from].includes(to);
}

export function isRunStatus(value: unknown): value is RunStatus {
  return typeof value === 'string' && (RUN_STATUSES as readonly string[]).includes(value);
}

export interface RunMetrics {
  applyDurationAverage: number | null;
  planDurationAverage: number | null;
  policyCheckFailures: number | null;
  runFailures: number | null;
  runsCount: number | null;
}

export interface RunTimes {
  status: string;
  planStartedAt: string | null;
  planFinishedAt: string | null;
  applyStartedAt: string | null;
  applyFinishedAt: string | null;
  policyCheckFailed: boolean;
}

export const METRICS_WINDOW = 30;

/**
 * The performance attributes, over the past 30 runs that errored or applied (newest first in
 * `runs`): average plan and apply durations in milliseconds, failures, policy-check failures,
 * and how many runs were counted. Null when no run counts yet.
 */
export function computeMetrics(runs: RunTimes[]): RunMetrics {
  const counted = runs.filter((r) => r.status === 'applied' || r.status === 'errored').slice(0, METRICS_WINDOW);
  if (counted.length === 0)
    return {
      applyDurationAverage: null,
      planDurationAverage: null,
      policyCheckFailures: null,
      runFailures: null,
      runsCount: null,
    };
  const average = (spans: [string | null, string | null][]) => {
    const ms = spans.filter(([a, b]) => a && b).map(([a, b]) => Date.parse(b!) - Date.parse(a!));
    return ms.length === 0 ? null : Math.round(ms.reduce((x, y) => x + y, 0) / ms.length);
  };
  return {
    planDurationAverage: average(counted.map((r) => [r.planStartedAt, r.planFinishedAt])),
    applyDurationAverage: average(counted.map((r) => [r.applyStartedAt, r.applyFinishedAt])),
    runFailures: counted.filter((r) => r.status === 'errored').length,
    policyCheckFailures: counted.filter((r) => r.status === 'errored' && r.policyCheckFailed).length,
    runsCount: counted.length,
  };
}

export interface Run {
  id: string;
  workspaceId: string;
  status: RunStatus;
  message: string | null;
  isDestroy: boolean;
  source: string;
  planStartedAt: string | null;
  planFinishedAt: string | null;
  applyStartedAt: string | null;
  applyFinishedAt: string | null;
  errorMessage: string | null;
  policyCheckFailed: boolean;
  createdAt: string;
  updatedAt: string;
  /** `<status>-at` of every status the run went through, as HCP names them (plan-queueable-at: its creation). */
  statusTimestamps: Record<string, string>;
  permissions: { canApply: boolean; canCancel: boolean; canDiscard: boolean };
}
