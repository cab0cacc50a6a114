import { conflict, forbidden, invalid, notFound } from '../domain/errors.js';
import type { AgentPool, AgentPoolInput } from '../domain/agent-pool.js';
import { newId } from '../domain/ids.js';
import { offsetOf, type PageRequest, type Paged } from '../domain/paging.js';
import { can } from '../domain/policy.js';
import { containsInsensitive } from '../store/like.js';
import { writeTransaction, type Tx } from '../store/transaction.js';
import { orgFacts } from './access.js';
import type { ServiceContext } from './context.js';
import { readableOrganization } from './organizations.js';

type PoolRow = {
  id: string;
  organization_id: string;
  name: string;
  organization_scoped: number;
  created_at: string;
  org_name: string;
};

async function toAgentPool(db: Tx, row: PoolRow): Promise<AgentPool> {
  const ws = await db
    .selectFrom('workspaces')
    .select('id')
    .where('agent_pool_id', '=', row.id)
    .orderBy('seq')
    .execute();
  return {
    id: row.id,
    organizationName: row.org_name,
    name: row.name,
    organizationScoped: row.organization_scoped === 1,
    createdAt: row.created_at,
    workspaceIds: ws.map((w) => w.id),
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

export async function createAgentPool(
  ctx: ServiceContext,
  organization: string,
  input: AgentPoolInput,
): Promise<AgentPool> {
  return writeTransaction(ctx, async (tx) => {
    const { row: org, facts } = await readableOrganization(ctx, organization, tx);
    if (!can(ctx.actor, 'organization:manage-agent-pools', facts))
      throw forbidden('not authorized to manage agent pools');
    const taken = await tx
      .selectFrom('agent_pools')
      .select('id')
      .where('organization_id', '=', org.id)
      .where('name', '=', input.name)
      .executeTakeFirst();
    if (taken) throw invalid('/data/attributes/name', 'Name has already been taken');
    const id = newId('apool');
    await tx
      .insertInto('agent_pools')
      .values({
        id,
        organization_id: org.id,
        name: input.name,
        organization_scoped: input.organizationScoped ? 1 : 0,
        created_at: ctx.clock.now().toISOString(),
      })
      .execute();
    return toAgentPool(tx, await selectPools(tx).where('agent_pools.id', '=', id).executeTakeFirstOrThrow());
  });
}

export async function listAgentPools(
  ctx: ServiceContext,
  organization: string,
  page: PageRequest,
  q?: string,
): Promise<Paged<AgentPool>> {
  const { row: org } = await readableOrganization(ctx, organization);
  let query = selectPools(ctx.db).where('agent_pools.organization_id', '=', org.id);
  if (q) query = query.where(containsInsensitive('agent_pools.name', q));
  const { n } = await ctx.db
    .selectFrom(query.as('p'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await query.orderBy('agent_pools.seq').limit(page.size).offset(offsetOf(page)).execute();
  const items: AgentPool[] = [];
  for (const row of rows) items.push(await toAgentPool(ctx.db, row));
  return { items, total: Number(n), page };
}

export async function getAgentPool(ctx: ServiceContext, id: string): Promise<AgentPool> {
  const { row } = await readablePool(ctx, id);
  return toAgentPool(ctx.db, row);
}

/** Deletes a pool; 409 while workspaces still use it. */
export async function deleteAgentPool(ctx: ServiceContext, id: string): Promise<void> {
  await writeTransaction(ctx, async (tx) => {
    const { row, facts } = await readablePool(ctx, id, tx);
    if (!can(ctx.actor, 'organization:manage-agent-pools', facts))
      throw forbidden('not authorized to manage agent pools');
    const used = await tx
      .selectFrom('workspaces')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('agent_pool_id', '=', row.id)
      .executeTakeFirstOrThrow();
    if (Number(used.n) > 0)
      throw conflict(`agent pool ${row.id} is still used by ${used.n} workspace(s); change their execution mode first`);
    await tx.deleteFrom('agent_pools').where('id', '=', row.id).execute();
  });
}
