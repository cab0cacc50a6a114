import { FINAL_STATUSES, RUN_STATUSES, type RunStatus } from './run.js';
import { DISCARDABLE } from './run-execution.js';

/**
 * The vocabulary of run lists' filters (`GET /workspaces/:id/runs`, `GET /organizations/:org/runs`):
 * HCP Terraform's run operations, status groups and sources, and how a berth run falls into each.
 */

/** HCP's run operations (`filter[operation]`). */
export const RUN_OPERATIONS = [
  'plan_only',
  'plan_and_apply',
  'save_plan',
  'refresh_only',
  'destroy',
  'empty_apply',
] as const;
export type RunOperation = (typeof RUN_OPERATIONS)[number];

/** The options of a run that decide its operation. */
export interface OperationFlags {
  planOnly: boolean;
  savePlan: boolean;
  refreshOnly: boolean;
  isDestroy: boolean;
  allowEmptyApply: boolean;
}

/**
 * A run has exactly one operation, the first of these whose option it was created with, else
 * `plan_and_apply`: a speculative plan applies nothing whatever else it asks (a speculative
 * destroy plan is `plan_only`), a saved plan is saved before anything else, and a destroy run that
 * allows an empty apply is a destroy. Decided by the options, not by how the run ended, so a run
 * keeps its operation for its whole life.
 */
export const OPERATION_PRECEDENCE: readonly (readonly [RunOperation, keyof OperationFlags])[] = [
  ['plan_only', 'planOnly'],
  ['save_plan', 'savePlan'],
  ['refresh_only', 'refreshOnly'],
  ['destroy', 'isDestroy'],
  ['empty_apply', 'allowEmptyApply'],
];

export function operationOf(flags: OperationFlags): RunOperation {
  return OPERATION_PRECEDENCE.find(([, flag]) => flags[flag])?.[0] ?? 'plan_and_apply';
}

/** HCP's run status groups (`filter[status_group]`). */
export const RUN_STATUS_GROUPS = ['non_final', 'final', 'discardable'] as const;
export type RunStatusGroup = (typeof RUN_STATUS_GROUPS)[number];

/**
 * The statuses of each group: `final` those a run never leaves, `non_final` every other (a saved
 * plan waiting in `planned_and_saved` included), `discardable` those a run may be discarded from
 * (pending, or waiting for someone to apply it).
 */
export function statusesOfGroup(group: RunStatusGroup): RunStatus[] {
  if (group === 'final') return [...FINAL_STATUSES];
  if (group === 'discardable') return [...DISCARDABLE];
  return RUN_STATUSES.filter((s) => !FINAL_STATUSES.includes(s));
}

/** HCP's run sources (`filter[source]`), as go-tfe names them. berth's runs are all `tfe-api`. */
export const RUN_SOURCES = ['tfe-api', 'tfe-ui', 'tfe-configuration-version'] as const;

/** A span of creation times, `from` included, `to` (none: no end) excluded (ISO timestamps). */
export interface TimeSpan {
  from: string;
  to?: string;
}

/**
 * A `filter[timeframe]` value: `year`, the 365 days before `now` and since, or a calendar year
 * (`2025`, UTC). Null for anything else.
 */
export function timeframeSpan(value: string, now: Date): TimeSpan | null {
  if (value === 'year') return { from: new Date(now.getTime() - 365 * 24 * 3600 * 1000).toISOString() };
  if (!/^\d{4}$/.test(value)) return null;
  const year = Number(value);
  return {
    from: new Date(Date.UTC(year, 0, 1)).toISOString(),
    to: new Date(Date.UTC(year + 1, 0, 1)).toISOString(),
  };
}
