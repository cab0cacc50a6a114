import type { ServiceContext } from '../context.js';
import { readRows } from '../../store/direct-reads.js';
import { offsetOf, type PageRequest } from '../../domain/common/paging.js';
import { organizationWorkspaceCount, projectWorkspaceCount } from './workspace-counts.js';
import {
  PLAIN,
  taggedBranches,
  workspaceFilters,
  type FilterPlan,
  type TaggedFilter,
  type WorkspaceFilter,
  type WorkspaceFilterQuery,
} from './workspaces-filters.js';

/*
 * How a workspace list counts its matches, apart from its page: each the cheapest way its
 * conditions allow. With one kind of condition alone (and a reader of the whole organization),
 * the count comes from indexes; otherwise the conditions are counted on the workspaces table.
 */

/** Every kind of list condition (the type makes the list complete). */
const CONDITIONS: Record<keyof WorkspaceFilterQuery, true> = {
  searchName: true,
  searchTags: true,
  searchTagsOrKeys: true,
  excludeTags: true,
  wildcardName: true,
  projectId: true,
  currentRunStatus: true,
  tagged: true,
  locked: true,
};

/** Whether `q` holds conditions of `kind` and of no other kind (besides the organization). */
export function onlyCondition(q: WorkspaceFilterQuery, kind: keyof WorkspaceFilterQuery): boolean {
  return (
    present(q, kind) &&
    (Object.keys(CONDITIONS) as (keyof WorkspaceFilterQuery)[]).every((k) => k === kind || !present(q, k))
  );
}

/** Whether `q` holds conditions of `kind`. */
function present(q: WorkspaceFilterQuery, kind: keyof WorkspaceFilterQuery): boolean {
  const v = q[kind];
  return Array.isArray(v) ? v.length > 0 : typeof v === 'boolean' || Boolean(v);
}

/** Whether `q` holds no condition at all (besides the organization). */
function noCondition(q: WorkspaceFilterQuery): boolean {
  return (Object.keys(CONDITIONS) as (keyof WorkspaceFilterQuery)[]).every((k) => !present(q, k));
}

/**
 * The number of matches when the page itself tells it, else null: a page that came back short
 * (fewer rows than asked) holds the last matches, so there are as many as it skipped plus what
 * it holds. (An empty page past the first says nothing: the list may end anywhere before it.)
 * The count, the costliest part of a list at scale, is then not run at all.
 */
export function totalOfShortPage(page: PageRequest, rows: number): number | null {
  if (rows >= page.size) return null;
  if (rows === 0 && offsetOf(page) > 0) return null;
  return offsetOf(page) + rows;
}

/** The number of workspaces passing every one of `filters`. */
export async function countWorkspaces(ctx: ServiceContext, filters: WorkspaceFilter[]): Promise<number> {
  let counted = ctx.db.selectFrom('workspaces').select((eb) => eb.fn.countAll<number>().as('n'));
  for (const f of filters) counted = counted.where(f);
  const [row] = await readRows(ctx.db, counted);
  return Number(row.n);
}

/** The number of workspaces of the list, counted the cheapest way its conditions allow. */
export async function countMatches(
  ctx: ServiceContext,
  orgId: string,
  query: WorkspaceFilterQuery,
  readable: WorkspaceFilter | null,
  filters: WorkspaceFilter[],
  plan: FilterPlan = PLAIN,
): Promise<number> {
  // Every workspace of the organization, or of one project: the counts kept by triggers.
  if (readable === null && noCondition(query)) return organizationWorkspaceCount(ctx.db, orgId);
  if (readable === null && onlyCondition(query, 'projectId'))
    return projectWorkspaceCount(ctx.db, query.projectId!, orgId);
  if (readable === null && onlyCondition(query, 'excludeTags')) return countByExclusion(ctx, orgId, query.excludeTags!);
  const [first, ...rest] = query.tagged ?? [];
  // A value alone (any key) has no disjoint branches: counted on the workspaces table.
  if (!first || first.key === '') return countWorkspaces(ctx, filters);
  if (rest.length === 0 && readable === null && onlyCondition(query, 'tagged')) return countTagged(ctx, orgId, first);
  // The first `filter[tagged]` splits into its two disjoint branches, each counted from an index.
  const others = workspaceFilters(orgId, { ...query, tagged: rest }, plan);
  if (readable) others.push(readable);
  const branch = taggedBranches(first);
  return (
    (await countWorkspaces(ctx, [...others, branch.own])) + (await countWorkspaces(ctx, [...others, branch.inherited]))
  );
}

/**
 * The number of the organization's workspaces whose effective bindings match `t`, from the
 * binding indexes alone (each own binding row carries its workspace's project, migration 013):
 * the workspaces bound to it themselves, plus the workspaces of the projects bound to it, less
 * those of these projects that bind the key themselves (their own value wins).
 */
async function countTagged(ctx: ServiceContext, organizationId: string, t: TaggedFilter): Promise<number> {
  const orgProjects = ctx.db
    .selectFrom('projects')
    .select('projects.id')
    .where('projects.organization_id', '=', organizationId);
  let own = ctx.db
    .selectFrom('workspace_tag_bindings as wtb')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('wtb.key', '=', t.key);
  let boundProjects = ctx.db
    .selectFrom('project_tag_bindings as ptb')
    .select('ptb.project_id')
    .where('ptb.key', '=', t.key);
  if (t.value !== '') {
    own = own.where('wtb.value', '=', t.value);
    boundProjects = boundProjects.where('ptb.value', '=', t.value);
  }
  boundProjects = boundProjects.where('ptb.project_id', 'in', orgProjects);
  const inProjects = ctx.db
    .selectFrom('workspaces')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspaces.organization_id', '=', organizationId)
    .where('workspaces.project_id', 'in', boundProjects);
  const overridden = ctx.db
    .selectFrom('workspace_tag_bindings as okb')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('okb.key', '=', t.key)
    .where('okb.project_id', 'in', boundProjects);
  const n = async (q: { executeTakeFirstOrThrow(): Promise<{ n: number }> }) =>
    Number((await q.executeTakeFirstOrThrow()).n);
  return (await n(own.where('wtb.project_id', 'in', orgProjects))) + (await n(inProjects)) - (await n(overridden));
}

/**
 * The number of the organization's workspaces that carry none of `tags`, as every workspace less
 * those that carry one: two counts answered from indexes, where counting the workspaces that
 * pass a `NOT IN` would visit each of them. (Flat tags belong to one organization, so a tag's
 * rows are all the organization's workspaces.)
 */
async function countByExclusion(ctx: ServiceContext, organizationId: string, tags: string[]): Promise<number> {
  const all = await ctx.db
    .selectFrom('workspaces')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('organization_id', '=', organizationId)
    .executeTakeFirstOrThrow();
  const tagged = await ctx.db
    .selectFrom('workspace_tags')
    .innerJoin('tags', 'tags.id', 'workspace_tags.tag_id')
    .select((eb) => eb.fn.count<number>('workspace_tags.workspace_seq').distinct().as('n'))
    .where('tags.organization_id', '=', organizationId)
    .where(
      'tags.name',
      'in',
      tags.map((t) => t.toLowerCase()),
    )
    .executeTakeFirstOrThrow();
  return Number(all.n) - Number(tagged.n);
}
