import { useEffect, useRef, useState } from 'preact/hooks';
import { query } from '../../../api.js';
import { Age, ErrorMessage, Section } from '../../../components/common.js';
import {
  related,
  type Collection,
  type Document,
  type Resource,
  type RunAttributes,
  type WorkspaceAttributes,
} from '../../../jsonapi.js';
import { href, navigate, orgPath } from '../../../router.js';
import { useApi } from '../../../use-api.js';
import { ExecutedByCell } from './executed-by-cell.js';
import { RunDetail } from './run-detail.js';
import { awaitsApproval, counts, durations, FINAL, shownRunId, tail, type PhaseAttributes } from './run-format.js';
import { StartRun } from './start-run.js';

/**
 * Runs berth executes: "Start run", their list (status, message, age, durations, counts, where each
 * executed), and the shown run's live logs and actions. The list is read again every second while
 * one of its runs is still going, every five seconds otherwise (a run queued meanwhile appears) or
 * after a failed read. The shown run is the one the URL names (`?run=`, read by itself when it is
 * not among the ten newest), else the run held on to (awaiting approval when the page opened, or
 * acted on), else the run awaiting approval, else the newest.
 */
export function ExecutedRunsCard({
  org,
  ws,
  runFromUrl,
  onRunsChanged,
}: {
  org: string;
  ws: Resource<WorkspaceAttributes>;
  runFromUrl: string | null;
  /** Called when a run appears or changes status (the workspace's lock and state may have changed). */
  onRunsChanged: () => void;
}) {
  const runs = useApi<Collection<RunAttributes>>(
    `/workspaces/${encodeURIComponent(ws.id)}/runs${query({ 'page[size]': 10, include: 'plan,apply' })}`,
  );
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

  const signature = list.map((r) => `${r.id}:${r.attributes.status}`).join(',');
  const seen = useRef<string | null>(null);
  useEffect(() => {
    if (!data) return;
    if (seen.current !== null && seen.current !== signature) onRunsChanged();
    seen.current = signature;
  }, [signature]);

  // The run awaiting approval when the page opened stays shown once it moves on (its apply log),
  // as does a run the user acted on; a page that opened on none follows the newest.
  const [pinned, setPinned] = useState<string | null>(null);
  const opened = useRef(false);
  useEffect(() => {
    if (!data || opened.current) return;
    opened.current = true;
    const waiting = list.find(awaitsApproval);
    if (waiting) setPinned(waiting.id);
  }, [data]);
  const shownId = data ? shownRunId(list, runFromUrl, pinned) : null;
  const inList = list.find((r) => r.id === shownId);
  // The run the URL names, when it is not on the list: read by itself (again at each read of the list).
  const single = useApi<Document<RunAttributes>>(
    shownId && !inList ? `/runs/${encodeURIComponent(shownId)}${query({ include: 'plan,apply' })}` : null,
    runs.data,
  );
  const other = single.data?.data.id === shownId ? single.data?.data : undefined;
  const foreign = other && related(other, 'workspace')?.id !== ws.id;
  const shown = inList ?? (foreign ? undefined : other);

  const included = (data as { included?: Resource<PhaseAttributes>[] } | null)?.included ?? [];
  const phase = (type: string, r: Resource<RunAttributes>) =>
    included.find((i) => i.type === type && tail(i.id) === tail(r.id));
  const runHref = (id: string) => href(orgPath(org, 'workspaces', ws.attributes.name), { run: id });
  return (
    <Section title="Runs" id="runs">
      <StartRun
        ws={ws}
        onStarted={(id) => {
          navigate(runHref(id));
          runs.reload();
        }}
      />
      <ErrorMessage message={runs.error} />
      {list.length === 0 ? (
        <p class="muted" data-testid="runs-empty">
          No runs yet.
        </p>
      ) : (
        <div class="table-wrap">
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
                <tr key={r.id} data-testid="run-row" data-run-id={r.id} class={shownId === r.id ? 'selected' : ''}>
                  <td>
                    <a href={runHref(r.id)} aria-current={shownId === r.id ? 'true' : undefined}>
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
        </div>
      )}
      {!inList && <ErrorMessage message={single.error} />}
      {foreign && <ErrorMessage message={`${shownId} is not a run of ${ws.attributes.name}.`} />}
      {shown && (shown.relationships?.['configuration-version'] as { data?: unknown } | undefined)?.data ? (
        <RunDetail
          key={shown.id}
          run={shown}
          reload={() => {
            setPinned(shown.id);
            runs.reload();
          }}
        />
      ) : null}
    </Section>
  );
}
