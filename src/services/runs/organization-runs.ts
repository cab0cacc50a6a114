import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { PageRequest, Paged } from '../../domain/common/paging.js';
import { scoped } from '../../domain/permissions/policy.js';
import type { Run } from '../../domain/runs/run.js';
import { inPage } from '../../store/literal-limit.js';
import type { DB } from '../../store/schema.js';
import type { ServiceContext } from '../context.js';
import { readableOrganization } from '../organizations/organizations.js';
import { readableFilter } from '../workspaces/workspaces-filters.js';
import { notAnAssessment } from './assessment-runs.js';
import { runConditions, type RunListFilter } from './run-list-filters.js';
import { withExecutors } from './run-executors.js';
import { isExecuted, toExecutedRun } from './run-rows.js';
import { toRun } from './runs.js';

/**
 * `GET /organizations/:org/runs`: the runs of every workspace of the organization that the caller
 * may read, newest first, with the filters of a workspace's list and two of their own.
 */
export interface OrganizationRunFilter extends RunListFilter {
  /** `filter[workspace_names]`: runs of these workspaces (names compared without case). */
  workspaceNames?: string[];
  /** `filter[agent_pool_names]`: runs that use one of these agent pools of the organization. */
  agentPoolNames?: string[];
}

type Scope = ExpressionBuilder<DB, 'runs' | 'workspaces'>;

/**
 * Runs that use one of `poolIds`: executed by an agent of one of them (the agent that claimed the
 * run's last phase, while it is registered), or of a workspace that executes on one of them now:
 * its effective pool, its own (execution mode `agent`), else its project's (a project that sets
 * its own mode), else the organization's (`org`, known here).
 */
function usesPools(eb: Scope, poolIds: string[], org: { mode: string; poolId: string | null }): Expression<SqlBool> {
  const inherits = eb('workspaces.execution_mode', 'is', null);
  const projectsOnPools = eb
    .selectFrom('projects')
    .select('projects.id')
    .where('projects.execution_overridden', '=', 1)
    .where('projects.default_execution_mode', '=', 'agent')
    .where('projects.default_agent_pool_id', 'in', poolIds);
  const projectsSettingTheirOwn = eb
    .selectFrom('projects')
    .select('projects.id')
    .where('projects.execution_overridden', '=', 1);
  const orgOnPools = org.mode === 'agent' && org.poolId !== null && poolIds.includes(org.poolId);
  return eb.or([
    eb(
      'runs.claimed_by',
      'in',
      eb.selectFrom('agents').select('agents.id').where('agents.agent_pool_id', 'in', poolIds),
    ),
    eb.and([eb('workspaces.execution_mode', '=', 'agent'), eb('workspaces.agent_pool_id', 'in', poolIds)]),
    eb.and([inherits, eb('workspaces.project_id', 'in', projectsOnPools)]),
    ...(orgOnPools ? [eb.and([inherits, eb('workspaces.project_id', 'not in', projectsSettingTheirOwn)])] : []),
  ]);
}

export async function listOrganizationRuns(
  ctx: ServiceContext,
  organization: string,
  page: PageRequest,
  filter: OrganizationRunFilter = {},
): Promise<Paged<Run>> {
  const { row: org, facts } = await readableOrganization(ctx, organization);
  // As every list: only the runs of workspaces the caller may read.
  const readable = readableFilter(ctx, facts);
  if (readable === 'none') return { items: [], total: 0, page };
  let base = ctx.db
    .selectFrom('runs')
    .innerJoin('workspaces', 'workspaces.id', 'runs.workspace_id')
    .where('workspaces.organization_id', '=', org.id)
    // Health assessment runs are not listed (assessment-runs.ts), as in a workspace's list.
    .where(notAnAssessment);
  if (readable) base = base.where(readable as never);
  for (const condition of runConditions(filter)) base = base.where(condition as never);
  const { workspaceNames, agentPoolNames } = filter;
  if (workspaceNames)
    base = base.where(
      'workspaces.name_lower',
      'in',
      // An empty list (nothing but commas) names no workspace: an `in ()` no engine takes.
      workspaceNames.length > 0 ? workspaceNames.map((n) => n.toLowerCase()) : [''],
    );
  if (agentPoolNames) {
    const pools =
      agentPoolNames.length === 0
        ? []
        : await ctx.db
            .selectFrom('agent_pools')
            .select('id')
            .where('organization_id', '=', org.id)
            .where('name', 'in', agentPoolNames)
            .execute();
    const poolIds = pools.map((p) => p.id);
    // Names of no pool of the organization: no run uses them.
    base =
      poolIds.length === 0
        ? base.where(sql<SqlBool>`1 = 0`)
        : base.where((eb) =>
            usesPools(eb, poolIds, { mode: org.default_execution_mode, poolId: org.default_agent_pool_id }),
          );
  }
  const { n } = await base.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
  const rows = await base
    .selectAll('runs')
    .select('workspaces.project_id')
    .orderBy('runs.seq', 'desc')
    .$call(inPage(page))
    .execute();
  const factsOf = (r: (typeof rows)[number]) => scoped(facts, { projectId: r.project_id, workspaceId: r.workspace_id });
  const executed = await withExecutors(
    ctx,
    rows.filter(isExecuted).map((r) => ({ run: toExecutedRun(ctx, r, factsOf(r)), claimedBy: r.claimed_by })),
  );
  const byId = new Map(executed.map((r) => [r.id, r]));
  const items = rows.map((r) => byId.get(r.id) ?? toRun(ctx, r, factsOf(r)));
  return { items, total: Number(n), page };
}
