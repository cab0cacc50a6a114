import type { Kysely, Selectable } from 'kysely';
import type { Actor } from '../domain/actor.js';
import { forbidden, notFound } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import { can, canOnInstance } from '../domain/policy.js';
import { generateToken, hashToken, isExpired, sameHash, type TokenInfo } from '../domain/token.js';
import type { DB, TokensTable } from '../store/schema.js';
import { memoQuery } from '../store/memo-query.js';
import { writeTransaction, type Tx } from '../store/transaction.js';
import type { ServiceContext } from './context.js';
import { orgFacts } from './access.js';
import { ensureAdminUser } from './admin-user.js';

/** Resolves a bearer token to the actor it acts as, or null when it is unknown. */
const tokenByHash = memoQuery((db, p: { hash: string }) =>
  db
    .selectFrom('tokens')
    .leftJoin('users', 'users.id', 'tokens.user_id')
    .leftJoin('teams', 'teams.id', 'tokens.team_id')
    .select([
      'tokens.id',
      'tokens.kind',
      'tokens.token_hash',
      'tokens.organization_id',
      'tokens.expired_at',
      'users.id as user_id',
      'users.username',
      'users.site_admin',
      'teams.id as team_id',
      'teams.organization_id as team_org_id',
    ])
    .where('tokens.token_hash', '=', p.hash),
);

/** An expired token is unknown: the request is a 401, as for a revoked one. */
export async function authenticate(db: Kysely<DB>, token: string, now: Date = new Date()): Promise<Actor | null> {
  const hash = hashToken(token);
  const row = await tokenByHash.first(db, { hash });
  if (!row || !sameHash(row.token_hash, hash)) return null;
  if (isExpired(row.expired_at, now)) return null;
  switch (row.kind) {
    case 'site-admin':
      // Migration 014 gave every site-administrator token to a user; a row of this kind written
      // later by hand (the benchmarks seed one) still acts as the instance's site administrator.
      if (!row.user_id) return { kind: 'site-admin', tokenId: row.id };
    // falls through: with a user, it is that user's token
    case 'user':
      if (!row.user_id || !row.username) return null;
      return {
        kind: 'user',
        tokenId: row.id,
        userId: row.user_id,
        username: row.username,
        siteAdmin: row.site_admin === 1,
      };
    case 'team':
      if (!row.team_id || !row.team_org_id) return null;
      return { kind: 'team', tokenId: row.id, teamId: row.team_id, organizationId: row.team_org_id };
    case 'organization':
      if (!row.organization_id) return null;
      return { kind: 'organization', tokenId: row.id, organizationId: row.organization_id };
  }
  return null;
}

async function insertToken(
  tx: Tx,
  now: string,
  fields: Pick<TokensTable, 'kind' | 'user_id' | 'team_id' | 'organization_id' | 'description'> & {
    expired_at?: string | null;
  },
): Promise<TokenInfo> {
  const token = generateToken();
  const id = newId('at');
  const expiredAt = fields.expired_at ?? null;
  await tx
    .insertInto('tokens')
    .values({ id, token_hash: hashToken(token), created_at: now, last_used_at: null, ...fields, expired_at: expiredAt })
    .execute();
  return {
    id,
    kind: fields.kind,
    description: fields.description,
    createdAt: now,
    lastUsedAt: null,
    expiredAt,
    userId: fields.user_id,
    teamId: fields.team_id,
    organizationName: null,
    token,
  };
}

/**
 * Mints a site-administrator token (site administrators only): a user token of the caller when
 * the caller is a site-administrator user, else of the instance's first site-administrator user
 * (`admin`, created when there is none).
 */
export async function createSiteAdminToken(ctx: ServiceContext, description: string | null): Promise<TokenInfo> {
  if (!canOnInstance(ctx.actor, 'instance:mint-site-admin-token')) throw notFound();
  const actor = ctx.actor;
  return writeTransaction(ctx, async (tx) => {
    const now = ctx.clock.now().toISOString();
    const userId = actor.kind === 'user' && actor.siteAdmin ? actor.userId : (await ensureAdminUser(tx, now)).id;
    return insertToken(tx, now, { kind: 'user', user_id: userId, team_id: null, organization_id: null, description });
  });
}

/**
 * For `serve`: when no site-administrator user has a token yet (a new database, or every such
 * token revoked), creates one for the first site-administrator user (`admin`, created with the
 * database) and returns its secret, to be printed once. Returns null otherwise.
 */
export async function ensureSiteAdminToken(db: Kysely<DB>, now: Date): Promise<string | null> {
  return writeTransaction(db, async (tx) => {
    const existing = await tx
      .selectFrom('tokens')
      .innerJoin('users', 'users.id', 'tokens.user_id')
      .select('tokens.id')
      .where('tokens.kind', '=', 'user')
      .where('users.site_admin', '=', 1)
      .executeTakeFirst();
    if (existing) return null;
    const at = now.toISOString();
    const admin = await ensureAdminUser(tx, at);
    const info = await insertToken(tx, at, {
      kind: 'user',
      user_id: admin.id,
      team_id: null,
      organization_id: null,
      description: 'created by berth serve',
    });
    return info.token!;
  });
}

/** A token for a user: the user itself or a site administrator may mint it. */
export async function createUserToken(
  ctx: ServiceContext,
  userId: string,
  description: string | null,
  expiredAt: string | null = null,
): Promise<TokenInfo> {
  const self = ctx.actor.kind === 'user' && ctx.actor.userId === userId;
  if (!self && !canOnInstance(ctx.actor, 'instance:manage-users')) throw notFound();
  return writeTransaction(ctx, async (tx) => {
    const user = await tx.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
    if (!user) throw notFound(`user ${userId} not found`);
    return insertToken(tx, ctx.clock.now().toISOString(), {
      kind: 'user',
      user_id: userId,
      team_id: null,
      organization_id: null,
      description,
      expired_at: expiredAt,
    });
  });
}

function toInfo(row: Selectable<TokensTable>, organizationName: string | null = null): TokenInfo {
  return {
    id: row.id,
    kind: row.kind,
    description: row.description,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    expiredAt: row.expired_at,
    userId: row.user_id,
    teamId: row.team_id,
    organizationName,
  };
}

/** The user's own tokens (the user itself or a site administrator). Secrets are never listed. */
export async function listUserTokens(ctx: ServiceContext, userId: string): Promise<TokenInfo[]> {
  const self = ctx.actor.kind === 'user' && ctx.actor.userId === userId;
  if (!self && !canOnInstance(ctx.actor, 'instance:manage-users')) throw notFound();
  const rows = await ctx.db
    .selectFrom('tokens')
    .selectAll()
    .where('user_id', '=', userId)
    .where('kind', '=', 'user')
    .orderBy('created_at')
    .execute();
  return rows.map((r) => toInfo(r));
}

/**
 * A token the actor may see and revoke, else 404: the user who owns it, owners of the team's or
 * token's organization, and site administrators.
 */
async function manageableToken(ctx: ServiceContext, tx: Tx, id: string) {
  const row = await tx
    .selectFrom('tokens')
    .leftJoin('teams', 'teams.id', 'tokens.team_id')
    .leftJoin('organizations', 'organizations.id', 'tokens.organization_id')
    .selectAll('tokens')
    .select(['teams.organization_id as team_org_id', 'organizations.name as org_name'])
    .where('tokens.id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound(`token ${id} not found`);
  const orgId = row.organization_id ?? row.team_org_id;
  let allowed = canOnInstance(ctx.actor, 'instance:manage-users');
  if (!allowed && row.kind === 'user') allowed = ctx.actor.kind === 'user' && ctx.actor.userId === row.user_id;
  if (!allowed && orgId) allowed = can(ctx.actor, 'organization:manage-tokens', await orgFacts(tx, ctx.actor, orgId));
  if (!allowed) throw notFound(`token ${id} not found`);
  return row;
}

/** A token by id (never its secret), for those who may revoke it. */
export async function readToken(ctx: ServiceContext, id: string): Promise<TokenInfo> {
  const row = await manageableToken(ctx, ctx.db, id);
  return toInfo(row, row.org_name);
}

/**
 * Revokes a token by id (see `manageableToken` for who may). Takes effect on the next request
 * (nothing is cached).
 */
export async function revokeToken(ctx: ServiceContext, id: string): Promise<void> {
  await writeTransaction(ctx, async (tx) => {
    await manageableToken(ctx, tx, id);
    await tx.deleteFrom('tokens').where('id', '=', id).execute();
  });
}

/** Creates (or regenerates, revoking the old one) the team's token. Owners and org tokens may. */
export async function createTeamToken(
  ctx: ServiceContext,
  teamId: string,
  description: string | null,
): Promise<TokenInfo> {
  return writeTransaction(ctx, async (tx) => {
    const team = await tx
      .selectFrom('teams')
      .select(['id', 'organization_id'])
      .where('id', '=', teamId)
      .executeTakeFirst();
    if (!team) throw notFound(`team ${teamId} not found`);
    const facts = await orgFacts(tx, ctx.actor, team.organization_id);
    if (!can(ctx.actor, 'organization:read', facts)) throw notFound(`team ${teamId} not found`);
    if (!can(ctx.actor, 'team:manage', facts))
      throw forbidden('only owners and organization tokens can manage team tokens');
    await tx.deleteFrom('tokens').where('team_id', '=', teamId).where('kind', '=', 'team').execute();
    return insertToken(tx, ctx.clock.now().toISOString(), {
      kind: 'team',
      user_id: null,
      team_id: teamId,
      organization_id: null,
      description,
    });
  });
}

export async function deleteTeamToken(ctx: ServiceContext, teamId: string): Promise<void> {
  await writeTransaction(ctx, async (tx) => {
    const team = await tx
      .selectFrom('teams')
      .select(['id', 'organization_id'])
      .where('id', '=', teamId)
      .executeTakeFirst();
    if (!team) throw notFound(`team ${teamId} not found`);
    const facts = await orgFacts(tx, ctx.actor, team.organization_id);
    if (!can(ctx.actor, 'organization:read', facts)) throw notFound(`team ${teamId} not found`);
    if (!can(ctx.actor, 'team:manage', facts))
      throw forbidden('only owners and organization tokens can manage team tokens');
    const result = await tx
      .deleteFrom('tokens')
      .where('team_id', '=', teamId)
      .where('kind', '=', 'team')
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound('the team has no token');
  });
}

/** Creates (or regenerates) the organization token. Only owners (not the org token itself). */
export async function createOrganizationToken(
  ctx: ServiceContext,
  orgName: string,
  description: string | null,
): Promise<TokenInfo> {
  return writeTransaction(ctx, async (tx) => {
    const org = await orgForTokens(ctx, tx, orgName);
    await tx.deleteFrom('tokens').where('organization_id', '=', org.id).where('kind', '=', 'organization').execute();
    const info = await insertToken(tx, ctx.clock.now().toISOString(), {
      kind: 'organization',
      user_id: null,
      team_id: null,
      organization_id: org.id,
      description,
    });
    return { ...info, organizationName: org.name };
  });
}

export async function deleteOrganizationToken(ctx: ServiceContext, orgName: string): Promise<void> {
  await writeTransaction(ctx, async (tx) => {
    const org = await orgForTokens(ctx, tx, orgName);
    const result = await tx
      .deleteFrom('tokens')
      .where('organization_id', '=', org.id)
      .where('kind', '=', 'organization')
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound('the organization has no token');
  });
}

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
    throw forbidden('only owners can manage the organization token');
  }
  return org;
}
