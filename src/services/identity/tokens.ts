import type { Kysely, Selectable } from 'kysely';
import type { Actor } from '../../domain/permissions/actor.js';
import { notFound } from '../../domain/common/errors.js';
import { MAX_TOKENS_PER_USER, tooMany } from '../../domain/common/limits.js';
import { newId } from '../../domain/common/ids.js';
import { can, canOnInstance } from '../../domain/permissions/policy.js';
import { generateToken, hashToken, isExpired, sameHash, type TokenInfo } from '../../domain/identity/token.js';
import type { DB, TokensTable } from '../../store/schema.js';
import { memoQuery } from '../../store/memo-query.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { orgFacts } from '../access.js';
import { ensureAdminUser } from './admin-user.js';
import { accounts } from './users.js';
import { isPendingUsername } from '../../domain/identity/user.js';
import { cachedFacts, generationFor, rememberSnapshot } from './auth-cache.js';
import { authenticateRunToken, isRunToken } from '../runs/run-tokens.js';

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

/** What a token authenticates as, and until when: the part of `authenticate` that is cached. */
interface TokenIdentity {
  actor: Actor;
  expiredAt: string | null;
  hash: string;
}

async function tokenIdentity(db: Kysely<DB>, hash: string): Promise<TokenIdentity | null> {
  const row = await tokenByHash.first(db, { hash });
  if (!row) return null;
  const expiredAt = row.expired_at;
  const stored = { expiredAt, hash: row.token_hash };
  switch (row.kind) {
    case 'site-admin':
    case 'user':
      // An invitation's placeholder is no user: a token of one (none is ever made) is refused.
      if (!row.user_id || !row.username || isPendingUsername(row.username)) return null;
      return {
        actor: {
          kind: 'user',
          tokenId: row.id,
          userId: row.user_id,
          username: row.username,
          siteAdmin: row.site_admin === 1,
        },
        ...stored,
      };
    case 'team':
      if (!row.team_id || !row.team_org_id) return null;
      return {
        actor: { kind: 'team', tokenId: row.id, teamId: row.team_id, organizationId: row.team_org_id },
        ...stored,
      };
    case 'organization':
      if (!row.organization_id) return null;
      return { actor: { kind: 'organization', tokenId: row.id, organizationId: row.organization_id }, ...stored };
    case 'audit-trails':
      if (!row.organization_id) return null;
      return { actor: { kind: 'audit-trail', tokenId: row.id, organizationId: row.organization_id }, ...stored };
  }
  return null;
}

/**
 * Resolves a bearer token to the actor it acts as, or null when it is unknown, revoked or expired.
 * Cached across requests by the token's hash (never the token itself) while no security table
 * changed (services/identity/auth-cache.ts); unknown tokens are not kept. Expiry is checked on every call,
 * against `now`: a cached token that expires authenticates no more. The actor object returned
 * belongs to one request: `orgFacts` on it checks cached facts against the generation read here
 * (services/identity/auth-cache.ts), so it must not outlive the request it was made for.
 */
export async function authenticate(db: Kysely<DB>, token: string, now: Date = new Date()): Promise<Actor | null> {
  return (await authenticateUntil(db, token, now))?.actor ?? null;
}

/**
 * `authenticate`, with the time the token expires (null: never): what `serve`'s read cache
 * keeps an answer for that token no longer than.
 */
export async function authenticateUntil(
  db: Kysely<DB>,
  token: string,
  now: Date = new Date(),
): Promise<{ actor: Actor; expiredAt: string | null } | null> {
  // A run's token (services/runs/run-tokens.ts): checked against its run on every request.
  if (isRunToken(token)) return authenticateRunToken(db, token, now);
  const hash = hashToken(token);
  const gen = await generationFor(db);
  const identity = await cachedFacts(
    db,
    gen,
    'token',
    hash,
    () => tokenIdentity(db, hash),
    (found) => found !== null,
  );
  // The stored hash is compared in constant time on every call, a cache hit included.
  if (!identity || !sameHash(identity.hash, hash)) return null;
  // An expired token authenticates no more (it stays listed until it is deleted).
  if (isExpired(identity.expiredAt, now)) return null;
  // An actor object of this request's own, which its look-ups of access facts know it by.
  const actor = { ...identity.actor };
  rememberSnapshot(actor, db, gen);
  return { actor, expiredAt: identity.expiredAt };
}

/** Who a new token records as its creator: the acting user, team or organization (by id). */
export function creatorOf(actor: Actor): Pick<TokensTable, 'created_by_type' | 'created_by_id'> {
  switch (actor.kind) {
    case 'user':
      return { created_by_type: 'users', created_by_id: actor.userId };
    case 'team':
      return { created_by_type: 'teams', created_by_id: actor.teamId };
    case 'organization':
      return { created_by_type: 'organizations', created_by_id: actor.organizationId };
    default:
      return { created_by_type: null, created_by_id: null };
  }
}

/** Stores a new token (its hash) and returns it with its secret, shown this once. */
export async function insertToken(
  tx: Tx,
  now: string,
  fields: Pick<TokensTable, 'kind' | 'user_id' | 'team_id' | 'organization_id' | 'description'> &
    Partial<Pick<TokensTable, 'expired_at' | 'created_by_type' | 'created_by_id'>>,
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
    expiredAt: fields.expired_at ?? null,
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
    const user = await accounts(tx).select('id').where('id', '=', userId).executeTakeFirst();
    if (!user) throw notFound(`user ${userId} not found`);
    const { n } = await tx
      .selectFrom('tokens')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', userId)
      .where('kind', '=', 'user')
      .executeTakeFirstOrThrow();
    if (Number(n) >= MAX_TOKENS_PER_USER) throw tooMany('/data', 'A user has too many tokens', MAX_TOKENS_PER_USER);
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

/** A token row as the API shows it (never its secret). */
export function toInfo(row: Selectable<TokensTable>, organizationName: string | null = null): TokenInfo {
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
  if (!self && !(await accounts(ctx.db).select('id').where('id', '=', userId).executeTakeFirst())) {
    throw notFound(`user ${userId} not found`);
  }
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
 * Revokes a token by id (see `manageableToken` for who may). Takes effect on the next request, in
 * every process (the deletion moves the security generation, which empties `authenticate`'s cache).
 */
export async function revokeToken(ctx: ServiceContext, id: string): Promise<void> {
  await writeTransaction(ctx, async (tx) => {
    await manageableToken(ctx, tx, id);
    await tx.deleteFrom('tokens').where('id', '=', id).execute();
  });
}
