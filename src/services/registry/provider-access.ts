import { notAuthorized, notFound } from '../../domain/common/errors.js';
import { can, type OrgFacts } from '../../domain/permissions/policy.js';
import {
  PROVIDER_URL_TTL_SECONDS,
  providerUrlSigner,
  type ProviderUrlSigner,
} from '../../domain/registry/provider-urls.js';
import type { Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { readableOrganization } from '../organizations/organizations.js';
import { signingKey } from '../state/state-urls.js';

/**
 * Who may read and publish an organization's providers (domain/permissions/policy.ts): its
 * members and its runs' tokens read (`registry-provider:read`), owners, teams with "manage
 * providers" and the organization token publish. Anyone else gets the 404 of an unknown
 * organization.
 */
export async function providerOrganization(
  ctx: ServiceContext,
  name: string,
  options: { manage?: boolean; db?: Tx } = {},
): Promise<{ id: string; name: string; facts: OrgFacts }> {
  const { row, facts } = await readableOrganization(ctx, name, options.db ?? ctx.db).catch(() => {
    throw notFound(`organization ${name} not found`);
  });
  if (!can(ctx.actor, 'registry-provider:read', facts)) throw notFound(`organization ${name} not found`);
  if (options.manage && !can(ctx.actor, 'registry-provider:manage', facts))
    throw notAuthorized('manage the private providers of this organization');
  return { id: row.id, name: row.name, facts };
}

export function mayManageProviders(ctx: ServiceContext, facts: OrgFacts): boolean {
  return can(ctx.actor, 'registry-provider:manage', facts);
}

/** A signer of the registry's file URLs for one answer; get it before a transaction opens. */
export async function providerSigner(ctx: Pick<ServiceContext, 'db' | 'clock'>): Promise<ProviderUrlSigner> {
  return providerUrlSigner(await signingKey(ctx.db), ctx.clock.now(), PROVIDER_URL_TTL_SECONDS);
}
