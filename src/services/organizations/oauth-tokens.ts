import { notAuthorized, notFound } from '../../domain/common/errors.js';
import { newId } from '../../domain/common/ids.js';
import type { OAuthToken, OAuthTokenInput } from '../../domain/organizations/oauth-token.js';
import type { PageRequest, Paged } from '../../domain/common/paging.js';
import { can } from '../../domain/permissions/policy.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import { orgFacts } from '../access.js';
import type { ServiceContext } from '../context.js';
import { readableOrganization } from './organizations.js';
import { inOrganizationNamed } from '../write-scope.js';
import { inPage } from '../../store/literal-limit.js';

function selectTokens(db: Tx) {
  return db
    .selectFrom('oauth_tokens')
    .innerJoin('organizations', 'organizations.id', 'oauth_tokens.organization_id')
    .select([
      'oauth_tokens.id',
      'oauth_tokens.organization_id',
      'oauth_tokens.service_provider',
      'oauth_tokens.name',
      'oauth_tokens.created_at',
      'organizations.name as org_name',
    ]);
}

type Row = Awaited<ReturnType<ReturnType<typeof selectTokens>['executeTakeFirstOrThrow']>>;

const toToken = (r: Row): OAuthToken => ({
  id: r.id,
  organizationName: r.org_name,
  serviceProvider: r.service_provider,
  name: r.name,
  createdAt: r.created_at,
});

/** A minimal VCS connection record (no real VCS traffic): what `vcs-repo.oauth-token-id` names. */
export async function createOAuthToken(
  ctx: ServiceContext,
  organization: string,
  input: OAuthTokenInput,
): Promise<OAuthToken> {
  return writeTransaction(inOrganizationNamed(ctx, organization), async (tx) => {
    const { row: org, facts } = await readableOrganization(ctx, organization, tx);
    if (!can(ctx.actor, 'organization:manage-vcs', facts))
      throw notAuthorized('manage the VCS connections of this organization');
    const id = newId('ot');
    await tx
      .insertInto('oauth_tokens')
      .values({
        id,
        organization_id: org.id,
        service_provider: input.serviceProvider,
        name: input.name,
        created_at: ctx.clock.now().toISOString(),
      })
      .execute();
    return toToken(await selectTokens(tx).where('oauth_tokens.id', '=', id).executeTakeFirstOrThrow());
  });
}

export async function listOAuthTokens(
  ctx: ServiceContext,
  organization: string,
  page: PageRequest,
): Promise<Paged<OAuthToken>> {
  const { row: org } = await readableOrganization(ctx, organization);
  const query = selectTokens(ctx.db).where('oauth_tokens.organization_id', '=', org.id);
  const { n } = await ctx.db
    .selectFrom(query.as('t'))
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await query.orderBy('oauth_tokens.seq').$call(inPage(page)).execute();
  return { items: rows.map(toToken), total: Number(n), page };
}

export async function getOAuthToken(ctx: ServiceContext, id: string): Promise<OAuthToken> {
  const row = await selectTokens(ctx.db).where('oauth_tokens.id', '=', id).executeTakeFirst();
  if (!row || !can(ctx.actor, 'organization:read', await orgFacts(ctx.db, ctx.actor, row.organization_id))) {
    throw notFound(`oauth token ${id} not found`);
  }
  return toToken(row);
}
