import { useState } from 'preact/hooks';
import { query } from '../../api.js';
import { Age, ErrorMessage, LocalPager, Section } from '../../components/common.js';
import type { Collection, Resource, WorkspaceAttributes } from '../../jsonapi.js';
import { orgPath } from '../../router.js';
import { useApi } from '../../use-api.js';

/** A `run-triggers` resource (HCP Terraform's Run Triggers API). */
interface RunTriggerAttributes {
  'workspace-name': string;
  'sourceable-name': string;
  'created-at': string;
}

type Direction = 'inbound' | 'outbound';

/**
 * The workspace's run triggers: the sources whose applied runs queue a run here (inbound), and
 * the workspaces its own applies queue runs in (outbound), each linking to that workspace's page;
 * and whether the runs triggers queue here apply by themselves (`auto-apply-run-trigger`).
 */
export function RunTriggersCard({ org, ws }: { org: string; ws: Resource<WorkspaceAttributes> }) {
  const autoApply = (ws.attributes as { 'auto-apply-run-trigger'?: boolean })['auto-apply-run-trigger'] === true;
  return (
    <Section title="Run triggers" id="run-triggers">
      <h3>Runs queued by applies of</h3>
      <TriggerList org={org} ws={ws} direction="inbound" />
      <p class="muted" data-testid="run-trigger-auto-apply">
        {autoApply
          ? 'Runs started by run triggers apply automatically.'
          : 'Runs started by run triggers wait for confirmation.'}
      </p>
      <h3>Applies here queue runs in</h3>
      <TriggerList org={org} ws={ws} direction="outbound" />
    </Section>
  );
}

function TriggerList({ org, ws, direction }: { org: string; ws: Resource<WorkspaceAttributes>; direction: Direction }) {
  const [page, setPage] = useState(1);
  const list = useApi<Collection<RunTriggerAttributes>>(
    `/workspaces/${encodeURIComponent(ws.id)}/run-triggers${query({
      'filter[run-trigger][type]': direction,
      'page[number]': page,
      'page[size]': 10,
    })}`,
  );
  const other = (t: Resource<RunTriggerAttributes>) =>
    direction === 'inbound' ? t.attributes['sourceable-name'] : t.attributes['workspace-name'];
  return (
    <>
      <ErrorMessage message={list.error} />
      <ul class="plain" aria-busy={list.loading} data-testid={`run-triggers-${direction}`}>
        {list.data?.data.map((t) => (
          <li key={t.id} data-testid="run-trigger">
            <a href={`#${orgPath(org, 'workspaces', other(t))}`}>{other(t)}</a>{' '}
            <span class="muted">
              since <Age at={t.attributes['created-at']} />
            </span>
          </li>
        ))}
        {list.data?.data.length === 0 && (
          <li class="muted">{direction === 'inbound' ? 'No source workspace.' : 'No workspace.'}</li>
        )}
      </ul>
      <LocalPager pagination={list.data?.meta?.pagination} setPage={setPage} />
    </>
  );
}
