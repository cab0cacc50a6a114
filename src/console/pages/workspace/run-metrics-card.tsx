import { query } from '../../api.js';
import { ErrorMessage, Section } from '../../components/common.js';
import { DurationChart, runDurations } from '../../components/run-chart.js';
import type { Collection, Resource, RunAttributes, WorkspaceAttributes } from '../../jsonapi.js';
import { useApi } from '../../use-api.js';

/** Plan and apply durations of the workspace's last 30 runs. */
export function RunMetricsCard({ ws }: { ws: Resource<WorkspaceAttributes> }) {
  const runs = useApi<Collection<RunAttributes>>(
    `/workspaces/${encodeURIComponent(ws.id)}/runs${query({ 'page[size]': 30 })}`,
  );
  const durations = runDurations(runs.data?.data ?? []);
  return (
    <Section title="Run metrics (last 30 runs)" id="run-metrics">
      <ErrorMessage message={runs.error} />
      <div class="grid">
        <DurationChart label="Plan" kind="plan" values={durations.map((d) => ({ id: d.id, seconds: d.plan }))} />
        <DurationChart label="Apply" kind="apply" values={durations.map((d) => ({ id: d.id, seconds: d.apply }))} />
      </div>
    </Section>
  );
}
