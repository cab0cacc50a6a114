import { BerthError, conflict, notAuthorized, notFound } from '../../domain/common/errors.js';
import type { AgentPool, AgentPoolInput } from '../../domain/agents/agent-pool.js';
import { newId } from '../../domain/common/ids.js';
import type { PageRequest, Paged } from '../../domain/common/paging.js';
import { can } from '../../domain/permissions/policy.js';
import { containsInsensitive } from '../../store/like.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import { orgFacts } from '../access.js';
import type { ServiceContext } from '../context.js';
import { plural } from '../../domain/common/plural.js';
import { readableOrganization } from './organizations.js';
import { inOrganizationNamed, inOrganizationOf } from '../write-scope.js';
import { inPage } from '../../store/literal-limit.js';

type PoolRow = {
  id: string;
  organization_id: string;
  name: string;
  organization_scoped: number;
  created_at: string;
  org_name: string;
};

/**
 * The workspaces whose effective execution runs on the pool: those that chose it, and those that
 * inherit it as their project's or their organization's default (see domain/workspaces/execution.ts).
 */
function workspacesOnPool(db: Tx, poolId: string) {
  return db
    .selectFrom('workspaces')
    .innerJoin('projects', 'projects.id', 'workspaces.project_id')
    .innerJoin('organizations', 'organizations.id', 'workspaces.organization_id')
    .select('workspaces.id')
    .where((eb) =>
      eb.or([
        eb.and([eb('workspaces.execution_mode', '=', 'agent'), eb('workspaces.agent_pool_id', '=', poolId)]),
        eb.and([
          eb('workspaces.execution_mode', 'is', null),
          eb('projects.execution_overridden', '=', 1),
          eb('projects.default_execution_mode', '=', 'agent'),
          eb('projects.default_agent_pool_id', '=', poolId),
        ]),
        eb.and([
          eb('workspaces.execution_mode', 'is', null),
          eb('projects.execution_overridden', '=', 0),
          eb('organizations.default_execution_mode', '=', 'agent'),
          eb('organizations.default_agent_pool_id', '=', poolId),
        ]),
      ]),
    );
}

async function toAgentPool(db: Tx, row: PoolRow): Promise<AgentPool> {
  const ws = await workspacesOnPool(db, row.id).orderBy('workspaces.seq').execute();
  const allowed = await db
    .selectFrom('agent_pool_allowed_workspaces')
    .select('workspace_id')
    .where('agent_pool_id', '=', row.id)
    .orderBy('seq')
    .execute();
  const agents = await db
    .selectFrom('agents')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('agent_pool_id', '=', row.id)
    .where('status', 'in', ['idle', 'busy'])
    .executeTakeFirstOrThrow();
  return {
    agentCount: Number(agents.n),
    id: row.id,
    organizationName: row.org_name,
    name: row.name,
    organizationScoped: row.organization_scoped === 1,
    createdAt: row.created_at,
    workspaceIds: ws.map((w) => w.id),
    allowedWorkspaceIds: allowed.map((w) => w.workspace_id),
  };
}

function selectPools(db: Tx) {
  return db
    .selectFrom('agent_pools')
    .innerJoin('organizations', 'organizations.id', 'agent_pools.organization_id')
    .select([
      'agent_pools.id',
      'agent_pools.organization_id',
      'agent_pools.name',
      'agent_pools.organization_scoped',
      'agent_pools.created_at',
      'organizations.name as org_name',
    ]);
}

/** The pool the actor may see (member of its organization), else 404. */
async function readablePool(ctx: ServiceContext, id: string, db: Tx = ctx.db) {
  const row = await selectPools(db).where('agent_pools.id', '=', id).executeTakeFirst();
  if (!row) throw notFound(`agent pool ${id} not found`);
  const facts = await orgFacts(db, ctx.actor, row.organization_id);
  if (!can(ctx.actor, 'organization:read', facts)) throw notFound(`agent pool ${id} not found`);
  return { row, facts };
}

async function nameTaken(tx: Tx, organizationId: string, name: string, exceptId?: string): Promise<boolean> {
  const holder = await tx
    .selectFrom('agent_pools')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('name', '=', name)
    .executeTakeFirst();
  return holder !== undefined && holder.id !== exceptId;
}

/** Replaces the pool's allowed workspaces; each must be a workspace of its organization (422). */
async function setAllowedWorkspaces(tx: Tx, organizationId: string, poolId: string, ids: string[]): Promise<void> {
  const found = new Set(
    ids.length === 0
      ? []
      : (
          await tx
            .selectFrom('workspaces')
            .select('id')
            .where('organization_id', '=', organizationId)
            .where('id', 'in', ids)
            .execute()
        ).map((w) => w.id),
  );
  const missing = ids.flatMap((id, i) =>
    found.has(id)
      ? []
      : [
          {
            status: 422,
            title: 'invalid attribute',
            detail: `Workspace ${id} not found in this organization`,
            pointer: `/data/relationships/allowed-workspaces/data/${i}/id`,
          },
        ],
  );
  if (missing.length > 0) throw new BerthError(missing);
  await tx.deleteFrom('agent_pool_allowed_workspaces').where('agent_pool_id', '=', poolId).execute();
  for (const workspaceId of ids)
    await tx
      .insertInto('agent_pool_allowed_workspaces')
      .values({ agent_pool_id: poolId, workspace_id: workspaceId })
      .execute();
}

const nameTakenError = () =>
  new BerthError([
    {
      status: 422,
      title: 'invalid attribute',
      detail: 'Name has already been taken',
      pointer: '/data/attributes/name',
    },
  ]);

export async function createAgentPool(
  ctx: ServiceContext,
  organization: string,
  input: AgentPoolInput,
): Promise<AgentPool> {
  return writeTransaction(inOrganizationNamed(ctx, organization), async (tx) => {
    const { row: org, facts } = await readableOrganization(ctx, organization, tx);
    if (!can(ctx.actor, 'organization:manage-agent-pools', facts))
      throw notAuthorized('manage the agent pools of this organization');
    if (await nameTaken(tx, org.id, input.name!)) throw nameTakenError();
    const id = newId('apool');
    await tx
      .insertInto('agent_pools')
      .values({
        id,
        organization_id: org.id,
        name: input.name!,
        organization_scoped: input.organizationScoped === false ? 0 : 1,
        created_at: ctx.clock.now().toISOString(),
      })
      .execute();
    if (input.allowedWorkspaceIds) await setAllowedWorkspaces(tx, org.id, id, input.allowedWorkspaceIds);
    return toAgentPool(tx, await selectPools(tx).where('agent_pools.id', '=', id).executeTakeFirstOrThrow());
  });
}

/**
 * Updates a pool's name, `organization-scoped` and allowed workspaces (replaced when given).
 * Workspaces that already run on the pool keep it; the scope applies when a workspace chooses it.
 */
export async function updateAgentPool(ctx: ServiceContext, id: string, input: AgentPoolInput): Promise<AgentPool> {
  return writeTransaction(inOrganizationOf(ctx, 'agent_pools', id), async (tx) => {
    const { row, facts } = await readablePool(ctx, id, tx);
    if (!can(ctx.actor, 'organization:manage-agent-pools', facts))
      throw notAuthorized('manage the agent pools of this organization');
    const changes: { name?: string; organization_scoped?: number } = {};
    if (input.name !== undefined && input.name !== row.name) {
      if (await nameTaken(tx, row.organization_id, input.name, row.id)) throw nameTakenError();
      changes.name = input.name;
    }
    if (input.organizationScoped !== undefined) changes.organization_scoped = input.organizationScoped ? 1 : 0;
    if (Object.keys(changes).length > 0)
      await tx.updateTable('agent_pools').set(changes).where('id', '=', row.id).execute();
    if (input.allowedWorkspaceIds)
      await setAllowedWorkspaces(tx, row.organization_id, row.id, input.allowedWorkspaceIds);
    return toAgentPool(tx, await selectPools(tx).where('agent_pools.id', '=', row.id).executeTakeFirstOrThrow());
  });
}

export interface AgentPoolListQuery {
  /** Case-insensitive substring of the name. */
  q?: string;
  /**
   * `filter[allowed_workspaces][name]`: the pools that workspace may use (organization-scoped
   * ones, and those that allow it by name).
   */
  allowedWorkspaceName?: string;
}

export async function listAgentPools(
  ctx: ServiceContext,
  organization: string,
  page: PageRequest,
  filters: AgentPoolListQuery = {},
): Promise<Paged<AgentPool>> {
  const { row: org } = await readableOrganization(ctx, organization);
  let query = selectPools(ctx.db).where('agent_pools.organization_id', '=', org.id);
  if (filters.q) query = query.where(containsInsensitive('agent_pools.name', filters.q));
  const wsName = filters.allowedWorkspaceName;
  if (wsName) {
    query = query.where((eb) =>
      eb.or([
        eb('agent_pools.organization_scoped', '=', 1),
        eb.exists(
          eb
            .selectFrom('agent_pool_allowed_workspaces as apw')
            .innerJoin('workspaces', 'workspaces.id', 'apw.workspace_id')
            .select('apw.seq')
            .whereRef('apw.agent_pool_id', '=', 'agent_pools.id')
            .where('workspaces.organization_id', '=', org.id)
            .where('workspaces.name_lower', '=', wsName.toLowerCase()),
        ),
      ]),
    );
  }
  const { n } = await ctx.db
    .selectFrom(query.as('p'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await query.orderBy('agent_pools.seq').$call(inPage(page)).execute();
  const items: AgentPool[] = [];
  for (const row of rows) items.push(await toAgentPool(ctx.db, row));
  return { items, total: Number(n), page };
}

export async function getAgentPool(ctx: ServiceContext, id: string): Promise<AgentPool> {
  const { row } = await readablePool(ctx, id);
  return toAgentPool(ctx.db, row);
}

/** Deletes a pool; 409 while workspaces run on it or it is a default of its organization or a project. */
export async function deleteAgentPool(ctx: ServiceContext, id: string): Promise<void> {
  await writeTransaction(inOrganizationOf(ctx, 'agent_pools', id), async (tx) => {
    const { row, facts } = await readablePool(ctx, id, tx);
    if (!can(ctx.actor, 'organization:manage-agent-pools', facts))
      throw notAuthorized('manage the agent pools of this organization');
    const used = await tx
      .selectFrom(workspacesOnPool(tx, row.id).as('w'))
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    if (Number(used.n) > 0)
      throw conflict(
        `agent pool ${row.name} (${row.id}) is still used by ${plural(Number(used.n), 'workspace')}; change their execution mode first`,
      );
    const asDefault = await tx
      .selectFrom('organizations')
      .select('id')
      .where('default_agent_pool_id', '=', row.id)
      .unionAll(tx.selectFrom('projects').select('id').where('default_agent_pool_id', '=', row.id))
      .executeTakeFirst();
    if (asDefault)
      throw conflict(
        `agent pool ${row.id} is the default agent pool of the organization or of a project; change that default first`,
      );
    await tx.deleteFrom('agent_pools').where('id', '=', row.id).execute();
  });
}
