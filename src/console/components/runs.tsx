import { useEffect, useRef, useState } from 'preact/hooks';
import { api, query } from '../api.js';
import { Age, duration, ErrorMessage, Section } from './common.js';
import type { Collection, ExecutedBy, Resource, RunAttributes } from '../jsonapi.js';
import { useApi } from '../use-api.js';

/**
 * Runs berth executes: their list (status, message, age, durations, counts, where each executed),
 * a run's live log and its actions.
 */

interface PhaseAttributes {
  status: string;
  'resource-additions': number;
  'resource-changes': number;
  'resource-destructions': number;
  'log-read-url': string;
  'status-timestamps'?: Record<string, string>;
}
type Actions = { 'is-confirmable'?: boolean; 'is-discardable'?: boolean; 'is-cancelable'?: boolean };
const FINAL = ['applied', 'planned_and_finished', 'discarded', 'errored', 'canceled', 'force_canceled'];
const PHASE_ENDED = ['finished', 'errored', 'canceled', 'unreachable'];
const tail = (id: string) => id.replace(/^(run|plan|apply)-/, '');

function counts(p?: Resource<PhaseAttributes>): string {
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
function durations(plan: Resource<PhaseAttributes> | undefined, apply: Resource<PhaseAttributes> | undefined): string {
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

/**
 * A phase's log, polled by offset (new bytes, or the ETX that ends it), without its STX/ETX framing.
 * Polling ends by itself once the phase has ended, so the run's status changing does not start it
 * again: a restart would blank the log shown until the first read came back.
 */
function PhaseLog({ runId, phase }: { runId: string; phase: 'plan' | 'apply' }) {
  const [text, setText] = useState('');
  const [ended, setEnded] = useState(false);
  useEffect(() => {
    let stop = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let offset = 0;
    let wait = 100;
    let all = '';
    setText('');
    setEnded(false);
    const poll = async () => {
      try {
        const doc = await api<{ data: Resource<PhaseAttributes> }>(
          `/${phase === 'plan' ? 'plans' : 'applies'}/${phase}-${tail(runId)}`,
        );
        const phaseEnded = PHASE_ENDED.includes(doc.data.attributes.status);
        const url = new URL(doc.data.attributes['log-read-url']);
        url.searchParams.set('offset', String(offset));
        url.searchParams.set('limit', '65536');
        const res = await fetch(`${url.pathname}${url.search}`, { credentials: 'omit', cache: 'no-store' });
        const chunk = res.ok ? new Uint8Array(await res.arrayBuffer()) : new Uint8Array();
        if (stop) return;
        offset += chunk.length;
        const piece = new TextDecoder().decode(chunk);
        const etx = piece.indexOf('\x03');
        all += (etx >= 0 ? piece.slice(0, etx) : piece).split('\x02').join('');
        setText(all);
        if (etx >= 0 || (phaseEnded && chunk.length === 0)) {
          setEnded(true);
          return;
        }
        wait = chunk.length > 0 ? 100 : Math.min(1000, wait * 2);
      } catch {
        wait = 1000;
      }
      if (!stop) timer = setTimeout(() => void poll(), wait);
    };
    void poll();
    return () => {
      stop = true;
      clearTimeout(timer);
    };
  }, [runId, phase]);
  return (
    <div>
      <h3>
        {phase === 'plan' ? 'Plan' : 'Apply'} log {ended ? '' : <span class="muted">(live)</span>}
      </h3>
      <pre class="run-log" data-testid={`run-log-${phase}`} data-ended={ended ? 'true' : 'false'}>
        {text}
      </pre>
    </div>
  );
}

/** Where a run executed: `serve` (the instance's name in its tooltip) or the agent's name; blank until claimed. */
function ExecutedByCell({ by }: { by: ExecutedBy | null | undefined }) {
  if (!by) return <span class="muted">—</span>;
  if (by.kind === 'serve')
    return (
      <span title={by.name ? `berth serve: ${by.name}` : 'berth serve'} data-kind="serve">
        serve
      </span>
    );
  return (
    <span title={`agent ${by['agent-id'] ?? by.name ?? ''}`} data-kind="agent">
      agent {by.name}
    </span>
  );
}

function RunDetail({ run, reload }: { run: Resource<RunAttributes>; reload: () => void }) {
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const actions = (run.attributes as unknown as { actions?: Actions }).actions ?? {};
  const act = async (action: 'apply' | 'discard' | 'cancel') => {
    setBusy(true);
    setError(null);
    try {
      await api(`/runs/${encodeURIComponent(run.id)}/actions/${action}`, { method: 'POST' });
      reload();
    } catch (err) {
      setError((err as Error).message);
    } finally {
      setBusy(false);
    }
  };
  const applyStarted = Boolean(
    run.attributes['status-timestamps']?.['applying-at'] || run.attributes['status-timestamps']?.['apply-queued-at'],
  );
  return (
    <div data-testid="run-detail" data-run-id={run.id}>
      <p>
        <strong>{run.id}</strong>{' '}
        <span class={`badge ${run.attributes.status}`} data-testid="run-detail-status">
          {run.attributes.status}
        </span>{' '}
        {actions['is-confirmable'] && (
          <button type="button" disabled={busy} onClick={() => void act('apply')} data-testid="run-apply">
            Apply
          </button>
        )}{' '}
        {actions['is-discardable'] && (
          <button type="button" disabled={busy} onClick={() => void act('discard')} data-testid="run-discard">
            Discard
          </button>
        )}{' '}
        {actions['is-cancelable'] && (
          <button type="button" disabled={busy} onClick={() => void act('cancel')} data-testid="run-cancel">
            Cancel
          </button>
        )}
      </p>
      <ErrorMessage message={error} />
      <PhaseLog runId={run.id} phase="plan" />
      {applyStarted && <PhaseLog runId={run.id} phase="apply" />}
    </div>
  );
}

/**
 * The workspace's runs, newest first; read again every second while one of them is still going,
 * every five seconds otherwise (a run queued meanwhile appears) or after a failed read.
 */
export function ExecutedRunsCard({ workspaceId }: { workspaceId: string }) {
  const runs = useApi<Collection<RunAttributes>>(
    `/workspaces/${encodeURIComponent(workspaceId)}/runs${query({ 'page[size]': 10, include: 'plan,apply' })}`,
  );
  const [selected, setSelected] = useState<string | null>(null);
  // A read that failed (a 429, a dropped connection) keeps the last list shown, with the error above
  // it, and is tried again: the open run's live logs stay as they are.
  const lastGood = useRef<Collection<RunAttributes> | null>(null);
  if (runs.data) lastGood.current = runs.data;
  const data = runs.data ?? lastGood.current;
  const list = data?.data ?? [];
  const going = list.some((r) => !FINAL.includes(r.attributes.status));
  useEffect(() => {
    if (runs.loading) return;
    const timer = setTimeout(runs.reload, going && !runs.error ? 1000 : 5000);
    return () => clearTimeout(timer);
  }, [going, runs.loading, runs.data, runs.error]);
  const included = (data as { included?: Resource<PhaseAttributes>[] } | null)?.included ?? [];
  const phase = (type: string, r: Resource<RunAttributes>) =>
    included.find((i) => i.type === type && tail(i.id) === tail(r.id));
  const shown = list.find((r) => r.id === selected) ?? list[0];
  return (
    <Section title="Runs" id="runs">
      <ErrorMessage message={runs.error} />
      {list.length === 0 ? (
        <p class="muted" data-testid="runs-empty">
          No runs yet.
        </p>
      ) : (
        <table>
          <thead>
            <tr>
              <th>Run</th>
              <th>Status</th>
              <th>Message</th>
              <th>Created</th>
              <th>Duration</th>
              <th>Changes</th>
              <th>Executed by</th>
            </tr>
          </thead>
          <tbody>
            {list.map((r) => (
              <tr key={r.id} data-testid="run-row" data-run-id={r.id} class={shown?.id === r.id ? 'selected' : ''}>
                <td>
                  <a
                    href="#"
                    onClick={(e) => {
                      e.preventDefault();
                      setSelected(r.id);
                    }}
                  >
                    {r.id}
                  </a>
                </td>
                <td data-testid="run-status">{r.attributes.status}</td>
                <td data-testid="run-message">{r.attributes.message}</td>
                <td>
                  <Age at={r.attributes['created-at']} />
                </td>
                <td data-testid="run-durations">{durations(phase('plans', r), phase('applies', r))}</td>
                <td data-testid="run-counts">{counts(phase('applies', r)) || counts(phase('plans', r))}</td>
                <td data-testid="run-executed-by">
                  <ExecutedByCell by={r.attributes['executed-by']} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      {shown && (shown.relationships?.['configuration-version'] as { data?: unknown } | undefined)?.data ? (
        <RunDetail key={shown.id} run={shown} reload={runs.reload} />
      ) : null}
    </Section>
  );
}
