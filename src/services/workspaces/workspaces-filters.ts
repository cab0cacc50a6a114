import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import { readableWorkspaceScope, type OrgFacts } from '../../domain/permissions/policy.js';
import { likeEscape } from '../../store/like.js';
import { narrowingQuery, trigramCandidates } from '../../store/name-search.js';
import type { DB } from '../../store/schema.js';
import type { ServiceContext } from '../context.js';

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
  /**
   * Names of `search[tags]` that are also keys of key-value tags in the organization: a workspace
   * matches one by a flat tag of that name or an effective binding of that key (see
   * `withKeyValueTagSearch`).
   */
  searchTagsOrKeys?: string[];
  excludeTags?: string[];
  wildcardName?: string;
  projectId?: string;
  currentRunStatus?: string[];
  tagged?: TaggedFilter[];
  /** `filter[locked]`: only locked (true) or only unlocked (false) workspaces. */
  locked?: boolean;
}

/** The parts of a `search[wildcard-name]`: its literal core (lower case) and where it is anchored. */
function wildcardParts(wildcard: string): { core: string; lead: boolean; trail: boolean } {
  const w = wildcard.toLowerCase();
  const lead = w.startsWith('*');
  const trail = w.length > 1 && w.endsWith('*');
  return { core: w.slice(lead ? 1 : 0, trail ? -1 : undefined), lead, trail };
}

/** `*x`, `x*`, `*x*` (or no star: exact), case-insensitive, as a LIKE pattern. */
export function wildcardPattern(wildcard: string): string {
  const { core, lead, trail } = wildcardParts(wildcard);
  return `${lead ? '%' : ''}${likeEscape(core)}${trail ? '%' : ''}`;
}

/**
 * How the name conditions of a list are answered, decided before the query is built (it takes a
 * look at the name index): the FTS5 queries whose candidates narrow the list (SQLite; see
 * store/name-search.ts). Empty: every condition as written.
 */
export interface FilterPlan {
  narrowByTrigrams: string[];
}

export const PLAIN: FilterPlan = { narrowByTrigrams: [] };

/** The plan of `query`'s name conditions: which of their literals the trigram index narrows, and how. */
export async function planFilters(ctx: ServiceContext, query: WorkspaceFilterQuery): Promise<FilterPlan> {
  const literals: string[] = [];
  if (query.searchName) literals.push(query.searchName.toLowerCase());
  if (query.wildcardName) literals.push(wildcardParts(query.wildcardName).core);
  const narrowByTrigrams: string[] = [];
  for (const literal of literals) {
    const match = await narrowingQuery(ctx.db, literal);
    if (match !== null) narrowByTrigrams.push(match);
  }
  return { narrowByTrigrams };
}

/**
 * A prefix search (`x*`) as a range of `name_lower` (names that start with `x` sort from `x` up
 * to, not including, `x` with its last character incremented, in code-point order: SQLite's
 * BINARY, PostgreSQL's "C"), which the index on (organization, name_lower) answers; the LIKE
 * still decides. Null when the range cannot be written (no core, or a last character that has no
 * plain successor).
 */
function prefixRange(wildcard: string): [string, string] | null {
  const { core, lead, trail } = wildcardParts(wildcard);
  if (lead || !trail || core === '') return null;
  const points = [...core];
  const last = points[points.length - 1].codePointAt(0)!;
  const next = last + 1;
  if (next > 0x10ffff || (next >= 0xd800 && next <= 0xdfff)) return null;
  return [core, points.slice(0, -1).join('') + String.fromCodePoint(next)];
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
export function workspaceFilters(
  organizationId: string,
  query: WorkspaceFilterQuery,
  plan: FilterPlan = PLAIN,
): WorkspaceFilter[] {
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
  // the tag rows alone, and only its members are looked up in the workspaces table. As an
  // ordered INTERSECT, which SQLite merges from the index ranges in one pass (see
  // workspaces-by-tags.ts), rather than probing one tag's rows for each row of the other.
  if (required.length > 0) {
    out.push((eb) => {
      let set = taggedWith(eb, required[0]);
      for (const name of required.slice(1)) set = set.intersect(taggedWith(eb, name));
      return eb('workspaces.seq', 'in', set.orderBy('workspace_seq'));
    });
  }
  for (const name of query.searchTagsOrKeys ?? []) {
    const branch = taggedBranches({ key: name, value: '' });
    out.push((eb) => eb.or([eb('workspaces.seq', 'in', taggedWith(eb, name)), branch.own(eb), branch.inherited(eb)]));
  }
  for (const tag of query.excludeTags ?? []) out.push((eb) => eb('workspaces.seq', 'not in', taggedWith(eb, tag)));
  if (query.searchName) {
    const pattern = `%${likeEscape(query.searchName.toLowerCase())}%`;
    out.push(() => sql<SqlBool>`workspaces.name_lower like ${pattern} escape '\\'`);
  }
  if (query.wildcardName) {
    const pattern = wildcardPattern(query.wildcardName);
    out.push(() => sql<SqlBool>`workspaces.name_lower like ${pattern} escape '\\'`);
    const { core, lead, trail } = wildcardParts(query.wildcardName);
    // No star: the name itself (the unique index on organization and name_lower answers it).
    if (!lead && !trail) out.push((eb) => eb('workspaces.name_lower', '=', core));
    const range = prefixRange(query.wildcardName);
    if (range) {
      out.push((eb) => eb('workspaces.name_lower', '>=', range[0]));
      out.push((eb) => eb('workspaces.name_lower', '<', range[1]));
    }
  }
  // The index narrows, the LIKE above decides: the answer is the same with or without it.
  for (const match of plan.narrowByTrigrams) out.push((eb) => eb('workspaces.seq', 'in', trigramCandidates(match)));
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

/**
 * `search[tags]` as HCP Terraform answers it: a name matches a flat tag of that name or a
 * key-value tag of that key (the Terraform CLI lists a `cloud` block's key-value tags with
 * `filter[tagged]` and their keys in `search[tags]` together). The names that are a key of no
 * binding in the organization stay flat-tag conditions (the tag index answers those alone); the
 * others move to `searchTagsOrKeys`.
 */
export async function withKeyValueTagSearch<Q extends WorkspaceFilterQuery>(
  ctx: ServiceContext,
  organizationId: string,
  query: Q,
): Promise<Q> {
  const names = query.searchTags ?? [];
  if (names.length === 0) return query;
  const orgProjects = ctx.db
    .selectFrom('projects')
    .select('projects.id')
    .where('projects.organization_id', '=', organizationId);
  const keys = await ctx.db
    .selectFrom('workspace_tag_bindings')
    .select('key')
    .where('key', 'in', names)
    .where('project_id', 'in', orgProjects)
    .union(
      ctx.db
        .selectFrom('project_tag_bindings')
        .select('key')
        .where('key', 'in', names)
        .where('project_id', 'in', orgProjects),
    )
    .execute();
  if (keys.length === 0) return query;
  const bound = new Set(keys.map((k) => k.key));
  return {
    ...query,
    searchTags: names.filter((n) => !bound.has(n)),
    searchTagsOrKeys: names.filter((n) => bound.has(n)),
  };
}
