import { query } from '../api.js';
import { ErrorMessage, Pager, DataTable } from '../components/common.js';
import { useDebouncedField } from '../hooks.js';
import type { AuditEventAttributes, Collection, Document } from '../jsonapi.js';
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

/** An actor id as the API's `filter[actor]` takes it (anything else in the box is a username). */
export const isActorId = (v: string) => /^(user|team|org|at)-[A-Za-z0-9]+$/.test(v);
/** A workspace id (anything else in the box is a workspace name). */
export const isWorkspaceId = (v: string) => /^ws-[A-Za-z0-9]{16}$/.test(v);

/** The memberships whose user matches `name`, with their users: where a username's id is found. */
export function memberLookupPath(org: string, name: string): string {
  return `/organizations/${encodeURIComponent(org)}/organization-memberships${query({ q: name, include: 'user', 'page[size]': 100 })}`;
}

/** The id of the user named `name` (any case) among a membership list's included users. */
export function userIdNamed(list: Collection | null, name: string): string | undefined {
  return list?.included?.find(
    (r) => r.type === 'users' && (r.attributes as { username?: string }).username?.toLowerCase() === name.toLowerCase(),
  )?.id;
}

/**
 * The filters as the API takes them: a username or a workspace name typed in a box becomes its id
 * (looked up in the organization); `pending` while a lookup is under way, `error` when none matched.
 */
function useResolvedFilters(org: string, current: { actor?: string; workspace?: string }) {
  const actorName = current.actor && !isActorId(current.actor) ? current.actor : null;
  const wsName = current.workspace && !isWorkspaceId(current.workspace) ? current.workspace : null;
  const members = useApi<Collection>(actorName ? memberLookupPath(org, actorName) : null);
  const ws = useApi<Document<{ name: string }>>(
    wsName ? `/organizations/${encodeURIComponent(org)}/workspaces/${encodeURIComponent(wsName)}` : null,
  );
  const actor = actorName ? userIdNamed(members.data, actorName) : current.actor;
  const wsDoc = ws.data?.data;
  const workspace = wsName
    ? wsDoc && wsDoc.attributes.name.toLowerCase() === wsName.toLowerCase()
      ? wsDoc.id
      : undefined
    : current.workspace;
  const error =
    actorName && !members.loading && !actor
      ? (members.error ?? `no member of ${org} is named ${actorName}`)
      : wsName && !ws.loading && !workspace
        ? ws.error
        : null;
  const pending = (actorName !== null && !actor) || (wsName !== null && !workspace);
  return { actor, workspace, pending, error };
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
  const resolved = useResolvedFilters(org, current);
  const list = useApi<Collection<AuditEventAttributes>>(
    resolved.pending ? null : auditPath(org, { ...current, actor: resolved.actor, workspace: resolved.workspace }),
  );
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
          <label for="audit-actor">Actor (username, or an id: user-…, team-…, at-…)</label>
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
          <label for="audit-workspace">Workspace (name, or ws-… id)</label>
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
      <ErrorMessage message={resolved.error ?? list.error} />
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
