import { duration } from '../../../components/common.js';
import type { Resource, RunAttributes } from '../../../jsonapi.js';

/** A run's plan or apply, as `include=plan,apply` and `GET /plans/:id` answer it. */
export interface PhaseAttributes {
  status: string;
  'resource-additions': number;
  'resource-changes': number;
  'resource-destructions': number;
  'log-read-url': string;
  'status-timestamps'?: Record<string, string>;
}

/** What may be done to a run now (its `actions`). */
export type RunActions = { 'is-confirmable'?: boolean; 'is-discardable'?: boolean; 'is-cancelable'?: boolean };

/** Statuses after which a run does not change again. */
export const FINAL = ['applied', 'planned_and_finished', 'discarded', 'errored', 'canceled', 'force_canceled'];
/** Statuses of a plan or apply that has ended. */
export const PHASE_ENDED = ['finished', 'errored', 'canceled', 'unreachable'];

/** The id's part after its prefix: a run, its plan and its apply share it. */
export const tail = (id: string) => id.replace(/^(run|plan|apply)-/, '');

/** The run's `actions`. */
export function actionsOf(run: Resource<RunAttributes>): RunActions {
  return (run.attributes as unknown as { actions?: RunActions }).actions ?? {};
}

/** "+1 ~0 -2" of a finished phase; empty otherwise. */
export function counts(p?: Resource<PhaseAttributes>): string {
  if (!p || p.attributes.status !== 'finished') return '';
  const a = p.attributes;
  return `+${a['resource-additions']} ~${a['resource-changes']} -${a['resource-destructions']}`;
}

/** Seconds a phase took (started-at to the time of its end), or has taken so far (null: not started). */
function phaseSeconds(p: Resource<PhaseAttributes> | undefined, now: number): number | null {
  const t = p?.attributes['status-timestamps'] ?? {};
  const start = t['started-at'] ? Date.parse(t['started-at']) : NaN;
  if (!Number.isFinite(start)) return null;
  const endAt = Object.entries(t).find(([k]) => k !== 'started-at')?.[1];
  const end = endAt ? Date.parse(endAt) : now;
  return Number.isFinite(end) && end >= start ? (end - start) / 1000 : null;
}

function seconds(s: number): string {
  return s < 10 ? `${s.toFixed(1)} s` : duration(s);
}

/** "plan 2.1 s · apply 4.0 s" (a phase still going: so far, with "…"). */
export function durations(
  plan: Resource<PhaseAttributes> | undefined,
  apply: Resource<PhaseAttributes> | undefined,
): string {
  const now = Date.now();
  const parts: string[] = [];
  for (const [name, p] of [
    ['plan', plan],
    ['apply', apply],
  ] as const) {
    const s = phaseSeconds(p, now);
    if (s === null) continue;
    const going = !PHASE_ENDED.includes(p!.attributes.status);
    parts.push(`${name} ${seconds(s)}${going ? '…' : ''}`);
  }
  return parts.join(' · ');
}

/** Whether a run waits for someone to approve its apply (planned, and confirmable). */
export function awaitsApproval(run: Resource<RunAttributes>): boolean {
  return run.attributes.status === 'planned' && actionsOf(run)['is-confirmable'] === true;
}

/**
 * The run the page shows: the one the URL names (`?run=`), else the one the page holds on to
 * (`pinned`: the run that awaited approval when the page opened, or the last one acted on), else
 * the newest run awaiting approval, else the newest. Null when there is none of these.
 */
export function shownRunId(
  list: Resource<RunAttributes>[],
  fromUrl: string | null,
  pinned: string | null = null,
): string | null {
  if (fromUrl) return fromUrl;
  if (pinned) return pinned;
  return (list.find(awaitsApproval) ?? list[0])?.id ?? null;
}
