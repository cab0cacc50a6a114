import { query } from '../api.js';
import { Age, ErrorMessage, Pager, DataTable } from '../components/common.js';
import type { Collection, OrganizationAttributes } from '../jsonapi.js';
import { orgPath } from '../router.js';
import { useApi } from '../use-api.js';

const PAGE_SIZE = 20;

/** The organizations the token may see. */
export function OrganizationsPage({ query: q }: { query: URLSearchParams }) {
  const page = q.get('page') ?? undefined;
  const list = useApi<Collection<OrganizationAttributes>>(
    `/organizations${query({ 'page[number]': page, 'page[size]': PAGE_SIZE })}`,
  );
  return (
    <>
      <h1>Organizations</h1>
      <ErrorMessage message={list.error} />
      <DataTable headings={['Name', 'Email', 'Created']} loading={list.loading} skeleton={!list.data && list.loading}>
        {list.data?.data.map((o) => (
          <tr key={o.id} data-testid="org-row">
            <td>
              <a href={`#${orgPath(o.attributes.name, 'workspaces')}`}>{o.attributes.name}</a>
            </td>
            <td>{o.attributes.email}</td>
            <td>
              <Age at={o.attributes['created-at']} />
            </td>
          </tr>
        ))}
        {list.data?.data.length === 0 && (
          <tr>
            <td colSpan={3} class="muted" data-testid="empty">
              No organization you may see.
            </td>
          </tr>
        )}
      </DataTable>
      <Pager pagination={list.data?.meta?.pagination} path="/" params={{}} />
    </>
  );
}
