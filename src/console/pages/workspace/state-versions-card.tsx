import { useState } from 'preact/hooks';
import { query } from '../../api.js';
import { Age, DataTable, ErrorMessage, LocalPager, Section } from '../../components/common.js';
import type { Collection, Resource, StateVersionAttributes, WorkspaceAttributes } from '../../jsonapi.js';
import { useApi } from '../../use-api.js';
import { useRollback } from './state-rollback.js';

function formatSize(bytes: number | null): string {
  if (bytes === null) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} KiB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
}

/** The workspace's state versions, ten a page, each with its download link (the signed URL) and, for who may, a rollback to it. */
export function StateVersionsCard({
  ws,
  current,
  onChanged,
}: {
  ws: Resource<WorkspaceAttributes>;
  current?: string;
  onChanged?: () => void;
}) {
  const [page, setPage] = useState(1);
  const list = useApi<Collection<StateVersionAttributes>>(
    `/workspaces/${encodeURIComponent(ws.id)}/state-versions${query({ 'page[number]': page, 'page[size]': 10 })}`,
    current,
  );
  // "Roll back to this version": afterwards the list and the workspace (its current state) are read again.
  const rollback = useRollback(ws, () => {
    list.reload();
    onChanged?.();
  });
  return (
    <Section title="State versions" id="state-versions">
      <ErrorMessage message={list.error} />
      <DataTable
        headings={['Serial', 'Created', 'Resources', 'Size', 'Download', 'Actions']}
        loading={list.loading}
        skeleton={!list.data && list.loading}
        skeletonRows={3}
      >
        {list.data?.data.map((sv) => {
          const a = sv.attributes;
          return (
            <tr key={sv.id} data-testid="state-version-row">
              <td>{a.serial}</td>
              <td>
                <Age at={a['created-at']} />
              </td>
              <td>{a['resource-count'] ?? ''}</td>
              <td>{formatSize(a.size)}</td>
              <td>
                {a['hosted-state-download-url'] ? (
                  <a
                    href={a['hosted-state-download-url']}
                    download={`${ws.attributes.name}-${a.serial}.tfstate`}
                    data-testid="state-download"
                  >
                    state
                  </a>
                ) : (
                  <span class="muted">{a.status}</span>
                )}
              </td>
              <td>{rollback.cell(sv)}</td>
            </tr>
          );
        })}
        {list.data?.data.length === 0 && (
          <tr>
            <td colSpan={6} class="muted" data-testid="empty">
              No state yet.
            </td>
          </tr>
        )}
      </DataTable>
      {rollback.panel}
      <LocalPager pagination={list.data?.meta?.pagination} setPage={setPage} />
    </Section>
  );
}
