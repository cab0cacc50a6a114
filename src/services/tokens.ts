import type { Kysely } from 'kysely';
import type { Actor } from '../domain/actor.js';
import { notFound } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import { canOnInstance } from '../domain/policy.js';
import { generateToken, hashToken, sameHash, type TokenInfo } from '../domain/token.js';
import type { DB, TokensTable } from '../store/schema.js';
import { writeTransaction, type Tx } from '../store/transaction.js';
import type { ServiceContext } from './context.js';

/** Resolves a bearer token to the actor it acts as, or null when it is unknown. */
export async function authenticate(db: Kysely<DB>, token: string): Promise<Actor | null> {
  const hash = hashToken(token);
  const row = await db
    .selectFrom('tokens')
    .leftJoin('users', 'users.id', 'tokens.user_id')
    .leftJoin('teams', 'teams.id', 'tokens.team_id')
    .select([
      'tokens.id',
      'tokens.kind',
      'tokens.token_hash',
      'tokens.organization_id',
      'users.id as user_id',
      'users.username',
      'users.site_admin',
      'teams.id as team_id',
      'teams.organization_id as team_org_id',
    ])
    .where('tokens.token_hash', '=', hash)
    .executeTakeFirst();
  if (!row || !sameHash(row.token_hash, hash)) return null;
  switch (row.kind) {
    case 'site-admin':
      return { kind: 'site-admin', tokenId: row.id };
    case 'user':
      if (!row.user_id || !row.username) return null;
      return { kind: 'user', tokenId: row.id, userId: row.user_id, username: row.username, siteAdmin: row.site_admin === 1 };
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
  fields: Pick<TokensTable, 'kind' | 'user_id' | 'team_id' | 'organization_id' | 'description'>,
): Promise<TokenInfo> {
  const token = generateToken();
  const id = newId('at');
  await tx.insertInto('tokens').values({ id, token_hash: hashToken(token), created_at: now, last_used_at: null, ...fields }).execute();
  return {
    id,
    kind: fields.kind,
    description: fields.description,
    createdAt: now,
    lastUsedAt: null,
    userId: fields.user_id,
    teamId: fields.team_id,
    organizationName: null,
    token,
  };
}

/** Mints a site-administrator token (site administrators only). */
export async function createSiteAdminToken(ctx: ServiceContext, description: string | null): Promise<TokenInfo> {
  if (!canOnInstance(ctx.actor, 'instance:mint-site-admin-token')) throw notFound();
  return writeTransaction(ctx.db, (tx) =>
    insertToken(tx, ctx.clock.now().toISOString(), { kind: 'site-admin', user_id: null, team_id: null, organization_id: null, description }),
  );
}

/**
 * For `serve`: when the database holds no site-administrator token yet, creates one and returns
 * its secret (to be printed once). Returns null when one exists already.
 */
export async function ensureSiteAdminToken(db: Kysely<DB>, now: Date): Promise<string | null> {
  return writeTransaction(db, async (tx) => {
    const existing = await tx.selectFrom('tokens').select('id').where('kind', '=', 'site-admin').executeTakeFirst();
    if (existing) return null;
    const info = await insertToken(tx, now.toISOString(), {
      kind: 'site-admin',
      user_id: null,
      team_id: null,
      organization_id: null,
      description: 'created by berth serve',
    });
    return info.token!;
  });
}

/** A token for a user: the user itself or a site administrator may mint it. */
export async function createUserToken(ctx: ServiceContext, userId: string, description: string | null): Promise<TokenInfo> {
  const self = ctx.actor.kind === 'user' && ctx.actor.userId === userId;
  if (!self && !canOnInstance(ctx.actor, 'instance:manage-users')) throw notFound();
  return writeTransaction(ctx.db, async (tx) => {
    const user = await tx.selectFrom('users').select('id').where('id', '=', userId).executeTakeFirst();
    if (!user) throw notFound(`user ${userId} not found`);
    return insertToken(tx, ctx.clock.now().toISOString(), {
      kind: 'user',
      user_id: userId,
      team_id: null,
      organization_id: null,
      description,
    });
  });
}
