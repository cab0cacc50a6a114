import { query } from '../api.js';
import { ErrorMessage, Pager, DataTable, TagBinding } from '../components/common.js';
import {
  findIncluded,
  relatedMany,
  type Collection,
  type ProjectAttributes,
  type Resource,
  type TagBindingAttributes,
} from '../jsonapi.js';
import { href, orgPath } from '../router.js';
import { useApi } from '../use-api.js';

const PAGE_SIZE = 20;

/** The organization's projects with their workspace counts and tag bindings. */
export function ProjectsPage({ org, query: q }: { org: string; query: URLSearchParams }) {
  const page = q.get('page') ?? undefined;
  const list = useApi<Collection<ProjectAttributes>>(
    `/organizations/${encodeURIComponent(org)}/projects${query({
      sort: 'name',
      include: 'effective_tag_bindings',
      'page[number]': page,
      'page[size]': PAGE_SIZE,
    })}`,
  );
  return (
    <>
      <h1>Projects</h1>
      <ErrorMessage message={list.error} />
      <DataTable
        headings={['Name', 'Workspaces', 'Tag bindings', 'Description']}
        loading={list.loading}
        skeleton={!list.data && list.loading}
      >
        {list.data?.data.map((p) => (
          <tr key={p.id} data-testid="project-row" data-name={p.attributes.name}>
            <td>
              <a href={`#${orgPath(org, 'projects', p.id)}`} data-testid="project-link">
                {p.attributes.name}
              </a>
            </td>
            <td>
              <a href={href(orgPath(org, 'workspaces'), { project: p.id })} data-testid="project-workspaces">
                {p.attributes['workspace-count']}
              </a>
            </td>
            <td>
              {relatedMany(p, 'effective-tag-bindings').map((ref) => {
                const b = findIncluded(list.data?.included, ref) as Resource<TagBindingAttributes> | undefined;
                return b ? <TagBinding key={ref.id} k={b.attributes.key} value={b.attributes.value} /> : null;
              })}
            </td>
            <td>{p.attributes.description ?? ''}</td>
          </tr>
        ))}
        {list.data?.data.length === 0 && (
          <tr>
            <td colSpan={4} class="muted" data-testid="empty">
              No project you may see.
            </td>
          </tr>
        )}
      </DataTable>
      <Pager pagination={list.data?.meta?.pagination} path={orgPath(org, 'projects')} params={{}} />
    </>
  );
}
