import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { readableWorkspaceScope, type OrgFacts } from '../domain/policy.js';
import { likeEscape } from '../store/like.js';
import type { DB } from '../store/schema.js';
import type { ServiceContext } from './context.js';

/** One condition on the `workspaces` table (columns qualified, so that joins may be added). */
export type WorkspaceFilter = (eb: ExpressionBuilder<DB, 'workspaces'>) => Expression<SqlBool>;

export interface TaggedFilter {
  /** Empty means any key: the value alone, under whatever key. */
  key: string;
  /** Empty means any value. */
  value: string;
}

export interface WorkspaceFilterQuery {
  searchName?: string;
  searchTags?: string[];
  excludeTags?: string[];
  wildcardName?: string;
  projectId?: string;
  currentRunStatus?: string[];
  tagged?: TaggedFilter[];
  /** `filter[locked]`: only locked (true) or only unlocked (false) workspaces. */
  locked?: boolean;
}

/** `*x`, `x*`, `*x*` (or no star: exact), case-insensitive, as a LIKE pattern. */
export function wildcardPattern(wildcard: string): string {
  const w = wildcard.toLowerCase();
  const lead = w.startsWith('*');
  const trail = w.length > 1 && w.endsWith('*');
  const core = w.slice(lead ? 1 : 0, trail ? -1 : undefined);
  return `${lead ? '%' : ''}${likeEscape(core)}${trail ? '%' : ''}`;
}

/**
 * What the caller may read: null for every workspace of the organization (an organization-level
 * grant), a filter to the projects and workspaces its teams have access to, or 'none'.
 */
export function readableFilter(ctx: ServiceContext, facts: OrgFacts): WorkspaceFilter | null | 'none' {
  const scope = readableWorkspaceScope(ctx.actor, facts);
  if (scope === 'all') return null;
  if (scope.projectIds.length === 0 && scope.workspaceIds.length === 0) return 'none';
  return (eb) =>
    eb.or([
      ...(scope.projectIds.length > 0 ? [eb('workspaces.project_id', 'in', scope.projectIds)] : []),
      ...(scope.workspaceIds.length > 0 ? [eb('workspaces.id', 'in', scope.workspaceIds)] : []),
    ]);
}

/**
 * The conditions of a workspace list, written as semi-joins (`seq IN (subquery)`) that the
 * database can drive from an index instead of a correlated subquery per workspace, on the
 * workspaces' integer keys (sets of integers are cheaper to build and probe than sets of ids):
 * - names match on the lower-case copy `name_lower` (indexed with the organization);
 * - a flat tag is one of the organization's tags, so a required tag alone narrows the list to
 *   the organization: the organization condition is then left out, which lets the database start
 *   from the tag's workspaces rather than from every workspace of the organization;
 * - `filter[tagged]` matches the effective bindings: the workspace's own value for the key, else
 *   (no own binding for the key) its project's.
 */
export function workspaceFilters(organizationId: string, query: WorkspaceFilterQuery): WorkspaceFilter[] {
  const out: WorkspaceFilter[] = [];
  const required = query.searchTags ?? [];
  const taggedWith = (eb: ExpressionBuilder<DB, 'workspaces'>, name: string) =>
    eb
      .selectFrom('workspace_tags')
      .innerJoin('tags', 'tags.id', 'workspace_tags.tag_id')
      .select('workspace_tags.workspace_seq')
      .where('tags.organization_id', '=', organizationId)
      .where('tags.name', '=', name.toLowerCase());
  if (required.length === 0) out.push((eb) => eb('workspaces.organization_id', '=', organizationId));
  // All required tags in one condition: the intersection of their sets is formed first, from
  // the tag rows alone, and only its members are looked up in the workspaces table.
  if (required.length > 0) {
    out.push((eb) => {
      let set = taggedWith(eb, required[required.length - 1]);
      for (let i = required.length - 2; i >= 0; i--)
        set = taggedWith(eb, required[i]).where('workspace_tags.workspace_seq', 'in', set);
      return eb('workspaces.seq', 'in', set);
    });
  }
  for (const tag of query.excludeTags ?? []) out.push((eb) => eb('workspaces.seq', 'not in', taggedWith(eb, tag)));
  if (query.searchName) {
    const pattern = `%${likeEscape(query.searchName.toLowerCase())}%`;
    out.push(() => sql<SqlBool>`workspaces.name_lower like ${pattern} escape '\\'`);
  }
  if (query.wildcardName) {
    const pattern = wildcardPattern(query.wildcardName);
    out.push(() => sql<SqlBool>`workspaces.name_lower like ${pattern} escape '\\'`);
  }
  if (query.projectId) {
    const projectId = query.projectId;
    out.push((eb) => eb('workspaces.project_id', '=', projectId));
  }
  if (query.currentRunStatus && query.currentRunStatus.length > 0) {
    const statuses = query.currentRunStatus;
    out.push((eb) => eb('workspaces.current_run_status', 'in', statuses));
  }
  if (query.locked !== undefined) {
    const locked = query.locked ? 1 : 0;
    out.push((eb) => eb('workspaces.locked', '=', locked));
  }
  for (const t of query.tagged ?? []) {
    if (t.key === '') {
      out.push(taggedWithValue(t.value));
      continue;
    }
    const branch = taggedBranches(t);
    out.push((eb) => eb.or([branch.own(eb), branch.inherited(eb)]));
  }
  return out;
}

/**
 * `filter[tagged][i][value]` alone: an effective binding of any key holds the value, either the
 * workspace's own, or its project's for a key the workspace does not bind itself.
 */
function taggedWithValue(value: string): WorkspaceFilter {
  return (eb) => {
    const own = eb
      .selectFrom('workspace_tag_bindings as wtb')
      .select('wtb.workspace_seq')
      .where('wtb.value', '=', value);
    const inherited = eb
      .selectFrom('project_tag_bindings as ptb')
      .select('ptb.id')
      .whereRef('ptb.project_id', '=', 'workspaces.project_id')
      .where('ptb.value', '=', value)
      .where((inner) =>
        inner.not(
          inner.exists(
            inner
              .selectFrom('workspace_tag_bindings as okb')
              .select('okb.seq')
              .whereRef('okb.workspace_id', '=', 'workspaces.id')
              .whereRef('okb.key', '=', 'ptb.key'),
          ),
        ),
      );
    return eb.or([eb('workspaces.seq', 'in', own), eb.exists(inherited)]);
  };
}

/**
 * The two ways a workspace matches one `filter[tagged]`: by a binding of its own, or, having no
 * own binding for the key, by its project's. They never both hold, so a count of the matches is
 * the sum of two counts, each driven from an index (counting their `OR` visits every workspace).
 */
export function taggedBranches(t: TaggedFilter): { own: WorkspaceFilter; inherited: WorkspaceFilter } {
  return {
    own: (eb) => {
      let own = eb.selectFrom('workspace_tag_bindings as wtb').select('wtb.workspace_seq').where('wtb.key', '=', t.key);
      if (t.value !== '') own = own.where('wtb.value', '=', t.value);
      return eb('workspaces.seq', 'in', own);
    },
    inherited: (eb) => {
      let inherited = eb
        .selectFrom('project_tag_bindings as ptb')
        .select('ptb.project_id')
        .where('ptb.key', '=', t.key);
      if (t.value !== '') inherited = inherited.where('ptb.value', '=', t.value);
      const ownKey = eb
        .selectFrom('workspace_tag_bindings as okb')
        .select('okb.seq')
        .whereRef('okb.workspace_id', '=', 'workspaces.id')
        .where('okb.key', '=', t.key);
      return eb.and([eb('workspaces.project_id', 'in', inherited), eb.not(eb.exists(ownKey))]);
    },
  };
}
