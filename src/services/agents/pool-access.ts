import { notFound } from '../../domain/common/errors.js';
import { can } from '../../domain/permissions/policy.js';
import type { Tx } from '../../store/transaction.js';
import { orgFacts } from '../access.js';
import type { ServiceContext } from '../context.js';

export interface ManagedPool {
  id: string;
  name: string;
  organizationId: string;
  organizationName: string;
}

/**
 * The agent pool whose tokens and agents the caller may see and manage: as HCP Terraform, those
 * who may manage the organization's agent pools (owners, teams with `manage-agent-pools`, the
 * organization token). Anyone else, and an unknown pool, gets the same 404.
 */
export async function manageablePool(ctx: ServiceContext, poolId: string, db: Tx = ctx.db): Promise<ManagedPool> {
  const row = await db
    .selectFrom('agent_pools')
    .innerJoin('organizations', 'organizations.id', 'agent_pools.organization_id')
    .select(['agent_pools.id', 'agent_pools.name', 'agent_pools.organization_id', 'organizations.name as org_name'])
    .where('agent_pools.id', '=', poolId)
    .executeTakeFirst();
  const missing = () => notFound(`agent pool ${poolId} not found`);
  if (!row) throw missing();
  const facts = await orgFacts(db, ctx.actor, row.organization_id);
  if (!can(ctx.actor, 'organization:manage-agent-pools', facts)) throw missing();
  return { id: row.id, name: row.name, organizationId: row.organization_id, organizationName: row.org_name };
}
