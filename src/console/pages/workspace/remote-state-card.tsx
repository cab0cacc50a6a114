import { useState } from 'preact/hooks';
import { query } from '../../api.js';
import { ErrorMessage, LocalPager, Section } from '../../components/common.js';
import type { Collection, Resource, WorkspaceAttributes } from '../../jsonapi.js';
import { useApi } from '../../use-api.js';

/** The workspaces that may read this one's state (or the note that every workspace may). */
export function RemoteStateCard({ ws }: { ws: Resource<WorkspaceAttributes> }) {
  const [page, setPage] = useState(1);
  const global = ws.attributes['global-remote-state'];
  const list = useApi<Collection<WorkspaceAttributes>>(
    global
      ? null
      : `/workspaces/${encodeURIComponent(ws.id)}/relationships/remote-state-consumers${query({
          'page[number]': page,
          'page[size]': 10,
        })}`,
  );
  return (
    <Section title="Remote state consumers" id="remote-state">
      {global ? (
        <p data-testid="remote-state-global">Every workspace of the organization may read this state.</p>
      ) : (
        <>
          <ErrorMessage message={list.error} />
          <ul class="plain" aria-busy={list.loading}>
            {list.data?.data.map((c) => (
              <li key={c.id} data-testid="remote-state-consumer">
                {c.attributes.name}
              </li>
            ))}
            {list.data?.data.length === 0 && <li class="muted">No other workspace may read this state.</li>}
          </ul>
          <LocalPager pagination={list.data?.meta?.pagination} setPage={setPage} />
        </>
      )}
    </Section>
  );
}
