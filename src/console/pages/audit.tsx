import { query } from '../api.js';
import { ErrorMessage, Pager, DataTable } from '../components/common.js';
import { useDebouncedField } from '../hooks.js';
import type { AuditEventAttributes, Collection } from '../jsonapi.js';
import { href, navigate, orgPath } from '../router.js';
import { useApi } from '../use-api.js';

const PAGE_SIZE = 20;

/** The API path of an organization's audit trail with filters. */
export function auditPath(
  org: string,
  filters: { since?: string; actor?: string; workspace?: string; page?: string },
  size = PAGE_SIZE,
): string {
  return `/organizations/${encodeURIComponent(org)}/audit-trail${query({
    'filter[since]': filters.since,
    'filter[actor]': filters.actor,
    'filter[workspace]': filters.workspace,
    'page[number]': filters.page,
    'page[size]': size,
  })}`;
}

/** The organization's audit trail, newest first, with its filters in the URL. */
export function AuditPage({ org, query: q }: { org: string; query: URLSearchParams }) {
  const path = orgPath(org, 'audit');
  const current = {
    since: q.get('since') ?? undefined,
    actor: q.get('actor') ?? undefined,
    workspace: q.get('workspace') ?? undefined,
    page: q.get('page') ?? undefined,
  };
  const set = (key: 'since' | 'actor' | 'workspace', value: string) =>
    navigate(href(path, { ...current, page: undefined, [key]: value.trim() === '' ? undefined : value.trim() }));
  const since = useDebouncedField(current.since ?? '', (v) => set('since', v), 600);
  const actor = useDebouncedField(current.actor ?? '', (v) => set('actor', v), 600);
  const workspace = useDebouncedField(current.workspace ?? '', (v) => set('workspace', v), 600);
  const list = useApi<Collection<AuditEventAttributes>>(auditPath(org, current));
  return (
    <>
      <h1>Audit trail</h1>
      <form class="filters" role="search" onSubmit={(e) => e.preventDefault()}>
        <div>
          <label for="audit-since">Since (2025-01-31 or a date-time)</label>
          <input
            id="audit-since"
            value={since.value}
            onInput={(e) => since.onInput(e.currentTarget.value)}
            onKeyDown={(e) => e.key === 'Enter' && since.flush()}
            data-testid="audit-since"
            autoComplete="off"
          />
        </div>
        <div>
          <label for="audit-actor">Actor id (user-…, team-…, at-…)</label>
          <input
            id="audit-actor"
            value={actor.value}
            onInput={(e) => actor.onInput(e.currentTarget.value)}
            onKeyDown={(e) => e.key === 'Enter' && actor.flush()}
            data-testid="audit-actor"
            autoComplete="off"
          />
        </div>
        <div>
          <label for="audit-workspace">Workspace id (ws-…)</label>
          <input
            id="audit-workspace"
            value={workspace.value}
            onInput={(e) => workspace.onInput(e.currentTarget.value)}
            onKeyDown={(e) => e.key === 'Enter' && workspace.flush()}
            data-testid="audit-workspace"
            autoComplete="off"
          />
        </div>
      </form>
      <ErrorMessage message={list.error} />
      <AuditTable list={list.data} loading={list.loading} setActor={(id) => set('actor', id)} />
      <Pager pagination={list.data?.meta?.pagination} path={path} params={current} />
    </>
  );
}

/** The rows of an audit trail (also the workspace page's). */
export function AuditTable({
  list,
  loading,
  setActor,
  rows = PAGE_SIZE,
}: {
  list: Collection<AuditEventAttributes> | null;
  loading: boolean;
  setActor?: (id: string) => void;
  rows?: number;
}) {
  return (
    <DataTable
      headings={['When', 'Who', 'Action', 'Target']}
      loading={loading}
      skeleton={!list && loading}
      skeletonRows={rows}
    >
      {list?.data.map((e) => {
        const a = e.attributes;
        const who = a['actor-name'] ?? a['actor-id'] ?? a['actor-kind'];
        return (
          <tr key={e.id} data-testid="audit-row">
            <td>
              <time dateTime={a.timestamp}>{new Date(a.timestamp).toLocaleString()}</time>
            </td>
            <td>
              {setActor && a['actor-id'] ? (
                <button type="button" class="link" onClick={() => setActor(a['actor-id']!)} title="only this actor">
                  {who}
                </button>
              ) : (
                who
              )}
            </td>
            <td>
              <code>{a.action}</code>
            </td>
            <td>
              {a['target-type']} {a['target-name'] ?? a['target-id'] ?? ''}
            </td>
          </tr>
        );
      })}
      {list?.data.length === 0 && (
        <tr>
          <td colSpan={4} class="muted" data-testid="empty">
            No change recorded.
          </td>
        </tr>
      )}
    </DataTable>
  );
}
