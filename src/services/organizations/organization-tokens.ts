import { notAuthorized, notFound } from '../../domain/common/errors.js';
import { can } from '../../domain/permissions/policy.js';
import type { TokenInfo, TokenOptions } from '../../domain/identity/token.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import { orgFacts } from '../access.js';
import type { ServiceContext } from '../context.js';
import { creatorFromRow } from '../teams/team-tokens.js';
import { creatorOf, insertToken, toInfo } from '../identity/tokens.js';
import { inOrganizationNamed } from '../write-scope.js';

/**
 * Organization tokens: each organization has at most one of each type, the organization token
 * (acts as an owner of its organization) and the audit trail token (reads its audit trail only).
 * Creating one replaces the previous one of its type. Only owners manage them; the organization
 * token cannot manage itself.
 */
export type OrganizationTokenType = 'organization' | 'audit-trails';

async function orgForTokens(ctx: ServiceContext, tx: Tx, orgName: string) {
  const org = await tx
    .selectFrom('organizations')
    .select(['id', 'name'])
    .where('name', '=', orgName)
    .executeTakeFirst();
  if (!org) throw notFound(`organization ${orgName} not found`);
  const facts = await orgFacts(tx, ctx.actor, org.id);
  if (!can(ctx.actor, 'organization:read', facts)) throw notFound(`organization ${orgName} not found`);
  if (ctx.actor.kind === 'organization' || !can(ctx.actor, 'organization:manage-tokens', facts)) {
    throw notAuthorized('manage the organization token (owners only)');
  }
  return org;
}

async function tokenRow(tx: Tx, organizationId: string, type: OrganizationTokenType) {
  return tx
    .selectFrom('tokens')
    .leftJoin('organizations as creator_org', 'creator_org.id', 'tokens.created_by_id')
    .selectAll('tokens')
    .select('creator_org.name as creator_org_name')
    .where('tokens.organization_id', '=', organizationId)
    .where('tokens.kind', '=', type)
    .executeTakeFirst();
}

/** Creates (or regenerates) the organization's token of the given type. */
export async function createOrganizationToken(
  ctx: ServiceContext,
  orgName: string,
  type: OrganizationTokenType,
  options: TokenOptions,
): Promise<TokenInfo> {
  return writeTransaction(inOrganizationNamed(ctx, orgName), async (tx) => {
    const org = await orgForTokens(ctx, tx, orgName);
    await tx.deleteFrom('tokens').where('organization_id', '=', org.id).where('kind', '=', type).execute();
    const info = await insertToken(tx, ctx.clock.now().toISOString(), {
      kind: type,
      user_id: null,
      team_id: null,
      organization_id: org.id,
      description: options.description ?? null,
      expired_at: options.expiredAt,
      ...creatorOf(ctx.actor),
    });
    const row = (await tokenRow(tx, org.id, type))!;
    return { ...info, createdBy: creatorFromRow(row), organizationName: org.name };
  });
}

/** The organization's token of the given type (never its secret): 404 when there is none. */
export async function readOrganizationToken(
  ctx: ServiceContext,
  orgName: string,
  type: OrganizationTokenType,
): Promise<TokenInfo> {
  const org = await orgForTokens(ctx, ctx.db, orgName);
  const row = await tokenRow(ctx.db, org.id, type);
  if (!row) throw notFound('the organization has no such token');
  // An organization token's row names no user or team.
  return { ...toInfo(row, org.name), createdBy: creatorFromRow(row) };
}

export async function deleteOrganizationToken(
  ctx: ServiceContext,
  orgName: string,
  type: OrganizationTokenType,
): Promise<void> {
  await writeTransaction(inOrganizationNamed(ctx, orgName), async (tx) => {
    const org = await orgForTokens(ctx, tx, orgName);
    const result = await tx
      .deleteFrom('tokens')
      .where('organization_id', '=', org.id)
      .where('kind', '=', type)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound('the organization has no such token');
  });
}
