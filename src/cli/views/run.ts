import type { Resource } from '../../client/jsonapi.js';
import type { PhaseAttributes, RunAttributes } from '../../client/resources.js';
import { AWAITING_CONFIRMATION } from '../../client/run-log.js';
import { clockTime, humanDuration } from '../output/human-time.js';
import { renderFields, renderTable } from '../output/output.js';

/** The plan and apply of executed runs, by run id (recorded runs have none). */
export type RunPhases = Map<string, { plan?: Resource<PhaseAttributes>; apply?: Resource<PhaseAttributes> }>;

/** The plan and apply resources of a list's `included`, by the run they belong to. */
export function phasesOf(included: Resource[] = []): RunPhases {
  const phases: RunPhases = new Map();
  for (const r of included) {
    if (r.type !== 'plans' && r.type !== 'applies') continue;
    const runId = `run-${r.id.replace(/^(plan|apply)-/, '')}`;
    const entry = phases.get(runId) ?? {};
    entry[r.type === 'plans' ? 'plan' : 'apply'] = r as Resource<PhaseAttributes>;
    phases.set(runId, entry);
  }
  return phases;
}

const first = (t: Record<string, string>, keys: string[]) => keys.map((k) => t[k]).find((v) => v !== undefined);

/** How long a phase took: from its start to the first of the ends given. */
const span = (r: Resource<RunAttributes>, from: string, to: string[]) => {
  const t = r.attributes['status-timestamps'] ?? {};
  const end = first(t, to);
  return t[from] && end ? humanDuration(Date.parse(end) - Date.parse(t[from])) : null;
};
const planSpan = (r: Resource<RunAttributes>) =>
  span(r, 'planning-at', [
    'planned-at',
    'planned-and-finished-at',
    ...(r.attributes['status-timestamps']?.['applying-at'] ? [] : ['errored-at', 'canceled-at', 'force-canceled-at']),
  ]);
const applySpan = (r: Resource<RunAttributes>) =>
  span(r, 'applying-at', ['applied-at', 'apply-finished-at', 'errored-at', 'canceled-at', 'force-canceled-at']);

/** Whether the run waits for someone to apply or discard it (a plan-only run never does). */
export const awaitsConfirmation = (r: Resource<RunAttributes>) =>
  !r.attributes['plan-only'] && AWAITING_CONFIRMATION.includes(r.attributes.status);

/** A run's status in words: `planned (awaiting confirmation)`, `plan_queued`, ... */
export const statusText = (r: Resource<RunAttributes>) =>
  r.attributes.status === 'planned_and_saved'
    ? 'planned_and_saved (saved plan: apply or discard it)'
    : awaitsConfirmation(r)
      ? `${r.attributes.status} (awaiting confirmation)`
      : r.attributes.status;

const finished = (p?: Resource<PhaseAttributes>) => p !== undefined && p.attributes.status === 'finished';

/** `+1 ~0 -0`: what the apply did, else what the plan found; null before either ended (or for a recorded run). */
export function resourceCounts(phases?: { plan?: Resource<PhaseAttributes>; apply?: Resource<PhaseAttributes> }) {
  const p = finished(phases?.apply) ? phases!.apply : finished(phases?.plan) ? phases!.plan : undefined;
  if (!p) return null;
  const a = p.attributes;
  return `+${a['resource-additions']} ~${a['resource-changes']} -${a['resource-destructions']}`;
}

/**
 * The table of `berth run list`; with `workspaceNames` (a list across an organization, the names
 * of its included workspaces by id), a WORKSPACE column.
 */
export function runTable(
  runs: Resource<RunAttributes>[],
  phases: RunPhases = new Map(),
  workspaceNames?: Map<string, string>,
): string {
  const workspaceOf = (r: Resource<RunAttributes>) => {
    const id = (r.relationships?.workspace?.data as { id?: string } | null | undefined)?.id;
    return id === undefined ? null : (workspaceNames?.get(id) ?? id);
  };
  return renderTable(runs, [
    { header: 'ID', value: (r) => r.id },
    ...(workspaceNames ? [{ header: 'WORKSPACE', value: workspaceOf }] : []),
    { header: 'STATUS', value: statusText },
    { header: 'PLAN', value: planSpan },
    { header: 'APPLY', value: applySpan },
    { header: 'CHANGES', value: (r) => resourceCounts(phases.get(r.id)) },
    { header: 'MESSAGE', value: (r) => r.attributes.message },
    { header: 'CREATED', value: (r) => r.attributes['created-at'] },
  ]);
}

/** The actions the run allows the caller now, in words (`apply, discard`). */
function actionsText(r: Resource<RunAttributes>): string | null {
  const a = r.attributes.actions;
  if (!a) return null;
  const names = [
    a['is-confirmable'] && 'apply',
    a['is-discardable'] && 'discard',
    a['is-cancelable'] && 'cancel',
    a['is-force-cancelable'] && 'force-cancel',
  ].filter((x): x is string => typeof x === 'string');
  return names.length ? names.join(', ') : 'none';
}

/**
 * The statuses the run went through, in the order of their times: `pending 14:02, plan_queued
 * 14:02, planning 14:03, ...` (`plan-queueable-at` is its creation, pending); null before any.
 */
export function timelineText(r: Resource<RunAttributes>, now: Date = new Date()): string | null {
  const entries = Object.entries(r.attributes['status-timestamps'] ?? {}).sort(
    ([, a], [, b]) => Date.parse(a) - Date.parse(b),
  );
  if (entries.length === 0) return null;
  const name = (key: string) => (key === 'plan-queueable-at' ? 'pending' : key.replace(/-at$/, '').replace(/-/g, '_'));
  return entries.map(([key, at]) => `${name(key)} ${clockTime(at, now)}`).join(', ');
}

/**
 * berth's `executed-by` of an executed run: the executor of its last claimed phase (null: none
 * yet). A serve instance's `name` is null but to site administrators.
 */
export interface ExecutedBy {
  kind: 'serve' | 'agent';
  name: string | null;
  'agent-id': string | null;
  'agent-pool-id': string | null;
}

export const executedByOf = (r: Resource<RunAttributes>) => (r.attributes['executed-by'] ?? null) as ExecutedBy | null;

/**
 * Where an executed run executed, in words: `berth serve (serve-host-1234-0a1b2c3d)`, `agent builder-1
 * (agent-…) of pool builders`, or that no executor has taken it yet. `poolName` names the agent's pool.
 */
export function executedByText(r: Resource<RunAttributes>, poolName?: string): string {
  const e = executedByOf(r);
  if (!e) return 'no executor yet';
  if (e.kind === 'serve') return e.name ? `berth serve (${e.name})` : 'berth serve';
  const id = e['agent-id'] && e['agent-id'] !== e.name ? ` (${e['agent-id']})` : '';
  const pool = poolName ?? e['agent-pool-id'];
  return `agent ${e.name}${id}${pool ? ` of pool ${pool}` : ''}`;
}

/** A run; `workspaceName` names its workspace (else its id is shown); `phases`: an executed run's plan and apply. */
export function runFields(
  r: Resource<RunAttributes>,
  workspaceName?: string,
  phases?: { plan?: Resource<PhaseAttributes>; apply?: Resource<PhaseAttributes> },
  /** What a queued run waits for, when it is not just its turn (an agent of its pool). */
  waiting?: string,
  /** The name of the pool of the agent that executed it. */
  poolName?: string,
  /** Who confirmed its apply (`confirmed-by`, named); absent: the relationship's id, if any. */
  confirmedBy?: string,
): string {
  const confirmer = r.relationships?.['confirmed-by']?.data;
  const ws = r.relationships?.workspace?.data;
  const executed = phases !== undefined;
  return renderFields([
    ['ID', r.id],
    ['Status', statusText(r)],
    ...(waiting ? ([['Waiting', waiting]] as [string, string][]) : []),
    ['Workspace', workspaceName ?? (ws && !Array.isArray(ws) ? ws.id : null)],
    ['Message', r.attributes.message],
    ...(executed
      ? ([
          ['Executed by', executedByText(r, poolName)],
          ['Plan only', r.attributes['plan-only'] ? 'yes' : 'no'],
          ...(r.attributes['terraform-version'] ? [['Terraform version', r.attributes['terraform-version']]] : []),
          ['Saved plan', r.attributes['save-plan'] ? 'yes' : 'no'],
          ['Confirmed by', confirmedBy ?? (confirmer && !Array.isArray(confirmer) ? confirmer.id : null)],
        ] as [string, string | null][])
      : []),
    ['Destroy', r.attributes['is-destroy'] ? 'yes' : 'no'],
    ['Plan duration', planSpan(r)],
    ['Apply duration', applySpan(r)],
    ...(executed
      ? ([
          ['Plan', phases.plan ? `${phases.plan.attributes.status}${countsOf(phases.plan)}` : null],
          ['Apply', phases.apply ? `${phases.apply.attributes.status}${countsOf(phases.apply)}` : null],
          ['Actions', actionsText(r)],
        ] as [string, string | null][])
      : []),
    ['Error', r.attributes['error-message']],
    ['Policy check failed', r.attributes['policy-check-failed'] ? 'yes' : 'no'],
    ['Created', r.attributes['created-at']],
    ['Timeline', timelineText(r)],
  ]);
}

const countsOf = (p: Resource<PhaseAttributes>) => (finished(p) ? ` (${resourceCounts({ plan: p })})` : '');

/** Whether a run document is one berth executes (it names its configuration version). */
export function isExecutedRun(r: Resource<RunAttributes>): boolean {
  const cv = r.relationships?.['configuration-version']?.data;
  return cv !== undefined && cv !== null;
}
