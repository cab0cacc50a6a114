import { query } from '../api.js';
import { Age, ErrorMessage, Pager, DataTable } from '../components/common.js';
import { useDebouncedField } from '../hooks.js';
import {
  findIncluded,
  related,
  type Collection,
  type ProjectAttributes,
  type Resource,
  type RunAttributes,
  type WorkspaceAttributes,
} from '../jsonapi.js';
import { lockHolderName } from '../components/lock-holder.js';
import { href, navigate, orgPath } from '../router.js';
import { parseTagged, taggedParams } from '../tags.js';
import { useApi } from '../use-api.js';

/** The page sizes one may choose (`size` in the hash); 20 when it names none of them. */
export const PAGE_SIZES = [20, 50, 100] as const;

/** The page size a page's query asks for. */
export function pageSizeOf(q: URLSearchParams): number {
  const size = Number(q.get('size'));
  return (PAGE_SIZES as readonly number[]).includes(size) ? size : PAGE_SIZES[0];
}

/** The query keys of the page's hash, in the order they are written. */
const KEYS = ['search', 'project', 'tags', 'tagged', 'locked', 'status', 'sort', 'size', 'page'] as const;
type Key = (typeof KEYS)[number];

const SORTS: [string, string][] = [
  ['', 'Creation order'],
  ['name', 'Name A→Z'],
  ['-name', 'Name Z→A'],
  ['-latest-change-at', 'Latest change first'],
  ['-current-run.created-at', 'Latest run first'],
  ['locked-at', 'Oldest lock first'],
];

/** The run statuses of the API (src/domain/runs/run.ts, RUN_STATUSES). */
const STATUSES = [
  'pending',
  'plan_queued',
  'planning',
  'planned',
  'cost_estimated',
  'policy_checked',
  'policy_soft_failed',
  'policy_override',
  'confirmed',
  'planned_and_finished',
  'planned_and_saved',
  'apply_queued',
  'applying',
  'applied',
  'discarded',
  'errored',
  'canceled',
  'force_canceled',
];

/** The API path of the list a page's query asks for. */
export function workspaceListPath(org: string, q: URLSearchParams): string {
  const search = q.get('search') ?? '';
  const wildcard = search.includes('*');
  return `/organizations/${encodeURIComponent(org)}/workspaces${query({
    'search[name]': wildcard ? undefined : search,
    'search[wildcard-name]': wildcard ? search : undefined,
    'filter[project][id]': q.get('project'),
    'search[tags]': q.get('tags'),
    'filter[locked]': q.get('locked'),
    'filter[current-run][status]': q.get('status'),
    sort: q.get('sort'),
    'page[number]': q.get('page'),
    'page[size]': pageSizeOf(q),
    include: 'project,current_run,locked_by',
    ...taggedParams(parseTagged(q.get('tagged') ?? '')),
  })}`;
}

/** Workspaces: search, filters, sort and pages, all kept in the URL's hash. */
export function WorkspacesPage({ org, query: q }: { org: string; query: URLSearchParams }) {
  const path = orgPath(org, 'workspaces');
  const current = Object.fromEntries(KEYS.map((k) => [k, q.get(k) ?? undefined])) as Record<Key, string | undefined>;
  /** A new query: any change but the page's own goes back to the first page. */
  const set = (key: Key, value: string) =>
    navigate(href(path, { ...current, page: undefined, [key]: value === '' ? undefined : value }));
  const list = useApi<Collection<WorkspaceAttributes>>(workspaceListPath(org, q));
  const projects = useApi<Collection<ProjectAttributes>>(
    `/organizations/${encodeURIComponent(org)}/projects${query({ 'page[size]': 100, sort: 'name' })}`,
  );
  const search = useDebouncedField(current.search ?? '', (v) => set('search', v.trim()));
  const tags = useDebouncedField(current.tags ?? '', (v) => set('tags', v), 500);
  const tagged = useDebouncedField(current.tagged ?? '', (v) => set('tagged', v), 500);
  const filtered = KEYS.some((k) => k !== 'page' && k !== 'size' && current[k] !== undefined);
  return (
    <>
      <h1>Workspaces</h1>
      <form class="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <div class="wide">
          <label for="ws-search">Name (part of it, or app-* )</label>
          <input
            id="ws-search"
            type="search"
            value={search.value}
            onInput={(e) => search.onInput(e.currentTarget.value)}
            onKeyDown={(e) => e.key === 'Enter' && search.flush()}
            data-testid="workspace-search"
            autoComplete="off"
          />
        </div>
        <div>
          <label for="ws-project">Project</label>
          <select
            id="ws-project"
            value={current.project ?? ''}
            onChange={(e) => set('project', e.currentTarget.value)}
            data-testid="filter-project"
          >
            <option value="">Any project</option>
            {projects.data?.data.map((p) => (
              <option key={p.id} value={p.id}>
                {p.attributes.name}
              </option>
            ))}
            {current.project && !projects.data?.data.some((p) => p.id === current.project) && (
              <option value={current.project}>{current.project}</option>
            )}
          </select>
        </div>
        <div>
          <label for="ws-tags">Flat tags (all of: a, b)</label>
          <input
            id="ws-tags"
            value={tags.value}
            onInput={(e) => tags.onInput(e.currentTarget.value)}
            onKeyDown={(e) => e.key === 'Enter' && tags.flush()}
            data-testid="filter-tags"
            autoComplete="off"
          />
        </div>
        <div>
          <label for="ws-tagged">Key-value tags (env:prod)</label>
          <input
            id="ws-tagged"
            value={tagged.value}
            onInput={(e) => tagged.onInput(e.currentTarget.value)}
            onKeyDown={(e) => e.key === 'Enter' && tagged.flush()}
            data-testid="filter-tagged"
            autoComplete="off"
          />
        </div>
        <div>
          <label for="ws-locked">Lock</label>
          <select
            id="ws-locked"
            value={current.locked ?? ''}
            onChange={(e) => set('locked', e.currentTarget.value)}
            data-testid="filter-locked"
          >
            <option value="">Locked or not</option>
            <option value="true">Locked</option>
            <option value="false">Unlocked</option>
          </select>
        </div>
        <div>
          <label for="ws-status">Current run</label>
          <select
            id="ws-status"
            value={current.status ?? ''}
            onChange={(e) => set('status', e.currentTarget.value)}
            data-testid="filter-status"
          >
            <option value="">Any status</option>
            {STATUSES.map((s) => (
              <option key={s} value={s}>
                {s.replaceAll('_', ' ')}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="ws-sort">Sort</label>
          <select
            id="ws-sort"
            value={current.sort ?? ''}
            onChange={(e) => set('sort', e.currentTarget.value)}
            data-testid="sort"
          >
            {SORTS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
        <div>
          <label for="ws-size">Per page</label>
          <select
            id="ws-size"
            value={String(pageSizeOf(q))}
            onChange={(e) => set('size', e.currentTarget.value === String(PAGE_SIZES[0]) ? '' : e.currentTarget.value)}
            data-testid="page-size"
          >
            {PAGE_SIZES.map((n) => (
              <option key={n} value={String(n)}>
                {n}
              </option>
            ))}
          </select>
        </div>
        <div>
          {filtered && (
            <a href={href(path, { size: current.size })} data-testid="clear-filters">
              Clear filters
            </a>
          )}
        </div>
      </form>
      <ErrorMessage message={list.error ?? projects.error} />
      <WorkspaceTable org={org} list={list.data} loading={list.loading} rows={pageSizeOf(q)} />
      <Pager pagination={list.data?.meta?.pagination} path={path} params={current} />
    </>
  );
}

/** The rows of a workspace list (also the locks board's). */
function WorkspaceTable({
  org,
  list,
  loading,
  rows = PAGE_SIZES[0],
}: {
  org: string;
  list: Collection<WorkspaceAttributes> | null;
  loading: boolean;
  rows?: number;
}) {
  return (
    <DataTable
      headings={['Name', 'Project', 'Lock', 'Current run', 'Tags', 'Resources', 'Latest change']}
      loading={loading}
      skeleton={!list && loading}
      skeletonRows={rows}
    >
      {list?.data.map((w) => (
        <WorkspaceRow key={w.id} org={org} w={w} included={list.included} />
      ))}
      {list?.data.length === 0 && (
        <tr>
          <td colSpan={7} class="muted" data-testid="empty">
            No workspace matches.
          </td>
        </tr>
      )}
    </DataTable>
  );
}

function WorkspaceRow({ org, w, included }: { org: string; w: Resource<WorkspaceAttributes>; included?: Resource[] }) {
  const project = findIncluded(included, related(w, 'project')) as Resource<ProjectAttributes> | undefined;
  const run = findIncluded(included, related(w, 'current-run')) as Resource<RunAttributes> | undefined;
  const a = w.attributes;
  return (
    <tr data-testid="workspace-row" data-name={a.name}>
      <td>
        <a href={`#${orgPath(org, 'workspaces', a.name)}`} data-testid="workspace-link">
          {a.name}
        </a>
      </td>
      <td>{project?.attributes.name ?? ''}</td>
      <td>
        {a.locked ? (
          <span class="badge locked" data-testid="workspace-locked" title={a['locked-reason'] ?? ''}>
            locked <Age at={a['locked-at']} />
          </span>
        ) : (
          <span class="muted">—</span>
        )}
        {a.locked && (
          <span class="lock-by" data-testid="workspace-lock-holder">
            {' '}
            by {lockHolderName(w, included)}
          </span>
        )}
      </td>
      <td>{run?.attributes.status.replaceAll('_', ' ') ?? <span class="muted">—</span>}</td>
      <td>
        {a['tag-names'].map((t) => (
          <span key={t} class="tag">
            {t}
          </span>
        ))}
      </td>
      <td>{a['resource-count']}</td>
      <td>
        <Age at={a['latest-change-at']} />
      </td>
    </tr>
  );
}

export { WorkspaceTable };
