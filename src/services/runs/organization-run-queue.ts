import type { PageRequest, Paged } from '../../domain/common/paging.js';
import { can, scoped } from '../../domain/permissions/policy.js';
import type { ServiceContext } from '../context.js';
import { notAnAssessment } from './assessment-runs.js';
import { readableOrganization } from '../organizations/organizations.js';

/**
 * An organization's run queue and capacity (`GET /organizations/:name/runs/queue` and
 * `/capacity`), which the Terraform CLI's `cloud` block reads while its run waits to start. The
 * queue is the organization's executed runs waiting for an executor (plan_queued, apply_queued),
 * oldest first, numbered from 1; capacity counts them (`pending`) and the runs executing
 * (`running`: planning, applying). Runs still pending in their workspace's queue are in neither.
 * Listed: the runs of workspaces whose runs the caller may read; numbered among all.
 */

const QUEUED = ['plan_queued', 'apply_queued'];
const RUNNING = ['planning', 'applying'];

export interface QueuedRun {
  id: string;
  workspaceId: string;
  status: string;
  createdAt: string;
  positionInQueue: number;
}

export interface RunCapacity {
  organization: string;
  pending: number;
  running: number;
}

export async function organizationRunQueue(
  ctx: ServiceContext,
  organization: string,
  page: PageRequest,
): Promise<Paged<QueuedRun>> {
  const { row: org, facts } = await readableOrganization(ctx, organization);
  const rows = await ctx.db
    .selectFrom('runs')
    .innerJoin('workspaces', 'workspaces.id', 'runs.workspace_id')
    .select(['runs.id', 'runs.workspace_id', 'runs.status', 'runs.created_at', 'workspaces.project_id'])
    .where('workspaces.organization_id', '=', org.id)
    .where('runs.configuration_version_id', 'is not', null)
    .where('runs.status', 'in', QUEUED)
    .where(notAnAssessment)
    .orderBy('runs.seq', 'asc')
    .execute();
  const visible = rows
    .map((r, i) => ({ r, position: i + 1 }))
    .filter(({ r }) =>
      can(ctx.actor, 'workspace:read-runs', scoped(facts, { projectId: r.project_id, workspaceId: r.workspace_id })),
    );
  const start = (page.number - 1) * page.size;
  const items = visible.slice(start, start + page.size).map(({ r, position }) => ({
    id: r.id,
    workspaceId: r.workspace_id,
    status: r.status,
    createdAt: r.created_at,
    positionInQueue: position,
  }));
  return { items, total: visible.length, page };
}

export async function organizationRunCapacity(ctx: ServiceContext, organization: string): Promise<RunCapacity> {
  const { row: org } = await readableOrganization(ctx, organization);
  const rows = await ctx.db
    .selectFrom('runs')
    .innerJoin('workspaces', 'workspaces.id', 'runs.workspace_id')
    .select(['runs.status', (eb) => eb.fn.countAll<number>().as('n')])
    .where('workspaces.organization_id', '=', org.id)
    .where('runs.configuration_version_id', 'is not', null)
    .where('runs.status', 'in', [...QUEUED, ...RUNNING])
    .where(notAnAssessment)
    .groupBy('runs.status')
    .execute();
  const count = (statuses: string[]) =>
    rows.filter((r) => statuses.includes(r.status)).reduce((n, r) => n + Number(r.n), 0);
  return { organization: org.name, pending: count(QUEUED), running: count(RUNNING) };
}
