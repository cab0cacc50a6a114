import { notFound } from '../../domain/common/errors.js';
import type { TokenInfo } from '../../domain/identity/token.js';
import type { ServiceContext } from '../context.js';
import { deleteTeamTokenById, readTeamTokenById } from '../teams/team-tokens.js';
import { readToken, revokeToken } from './tokens.js';

/**
 * `/authentication-tokens/:id` serves every kind of token: each kind's own service decides who
 * may read or revoke it. Unknown ids, and kinds that cannot be read by id, are a 404.
 */
async function kindOf(ctx: ServiceContext, id: string): Promise<string | null> {
  const row = await ctx.db.selectFrom('tokens').select('kind').where('id', '=', id).executeTakeFirst();
  return row?.kind ?? null;
}

export async function readTokenById(ctx: ServiceContext, id: string): Promise<TokenInfo> {
  switch (await kindOf(ctx, id)) {
    case 'team':
      return readTeamTokenById(ctx, id);
    case null:
      throw notFound(`token ${id} not found`);
    default:
      // User tokens and the others: their owner (or who may manage them) reads them.
      return readToken(ctx, id);
  }
}

export async function revokeTokenById(ctx: ServiceContext, id: string): Promise<void> {
  switch (await kindOf(ctx, id)) {
    case 'team':
      return deleteTeamTokenById(ctx, id);
    default:
      return revokeToken(ctx, id);
  }
}
