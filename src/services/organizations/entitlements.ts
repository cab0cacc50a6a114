import type { InstanceCapabilities } from '../../domain/organizations/entitlements.js';
import type { Organization } from '../../domain/organizations/organization.js';
import type { ServiceContext } from '../context.js';
import { organizationRunsOnAgents } from '../runs/run-without-executor.js';
import { getOrganization } from './organizations.js';

/**
 * An organization's entitlement set (domain/organizations/entitlements.ts): the organization (404 unless the
 * caller is a member) and what executes its runs: this instance, or, without an executor of its
 * own, the agents its workspaces send runs to.
 */
export async function getEntitlements(
  ctx: ServiceContext,
  name: string,
): Promise<{ organization: Organization; capabilities: InstanceCapabilities }> {
  const organization = await getOrganization(ctx, name);
  const executesRuns = ctx.settings.executesRuns === true;
  const runsOnAgents = !executesRuns && (await organizationRunsOnAgents(ctx.db, organization.id));
  return { organization, capabilities: { executesRuns, runsOnAgents } };
}
