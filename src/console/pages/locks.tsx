import { query } from '../api.js';
import { Age, ErrorMessage, Pager, DataTable } from '../components/common.js';
import { lockHolderName } from '../components/lock-holder.js';
import type { Collection, WorkspaceAttributes } from '../jsonapi.js';
import { orgPath } from '../router.js';
import { useApi } from '../use-api.js';

const PAGE_SIZE = 20;

/** The locks board: every locked workspace of the organization, oldest lock first. */
export function LocksPage({ org, query: q }: { org: string; query: URLSearchParams }) {
  const page = q.get('page') ?? undefined;
  const list = useApi<Collection<WorkspaceAttributes>>(
    `/organizations/${encodeURIComponent(org)}/workspaces${query({
      'filter[locked]': 'true',
      sort: 'locked-at',
      include: 'locked_by',
      'page[number]': page,
      'page[size]': PAGE_SIZE,
    })}`,
  );
  const total = list.data?.meta?.pagination?.['total-count'];
  return (
    <>
      <h1>Locks</h1>
      <p class="muted" data-testid="locks-count">
        {total === undefined
          ? '\u00a0'
          : total === 1
            ? '1 locked workspace, oldest lock first'
            : `${total} locked workspaces, oldest lock first`}
      </p>
      <ErrorMessage message={list.error} />
      <DataTable
        headings={['Workspace', 'Held by', 'Reason', 'Locked']}
        loading={list.loading}
        skeleton={!list.data && list.loading}
      >
        {list.data?.data.map((w) => (
          <tr key={w.id} data-testid="locks-board-row" data-name={w.attributes.name}>
            <td>
              <a href={`#${orgPath(org, 'workspaces', w.attributes.name)}`}>{w.attributes.name}</a>
            </td>
            <td data-testid="lock-holder">{lockHolderName(w, list.data?.included)}</td>
            <td data-testid="lock-reason">{w.attributes['locked-reason'] ?? ''}</td>
            <td>
              <Age at={w.attributes['locked-at']} />
            </td>
          </tr>
        ))}
        {list.data?.data.length === 0 && (
          <tr>
            <td colSpan={4} class="muted" data-testid="empty">
              Nothing is locked.
            </td>
          </tr>
        )}
      </DataTable>
      <Pager pagination={list.data?.meta?.pagination} path={orgPath(org, 'locks')} params={{}} />
    </>
  );
}
