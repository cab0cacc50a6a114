import type { Actor } from '../../domain/permissions/actor.js';
import type { Clock } from '../../domain/common/clock.js';
import {
  CONSOLE_TOKEN_DESCRIPTION,
  CONSOLE_TOKEN_TTL_MS,
  generateSignInCode,
  looksLikeSignInCode,
  SIGN_IN_LINK_TTL_MS,
} from '../../domain/identity/console-sign-in.js';
import { forbidden, notFound } from '../../domain/common/errors.js';
import { newId } from '../../domain/common/ids.js';
import { MAX_TOKENS_PER_USER, tooMany } from '../../domain/common/limits.js';
import { hashToken, type TokenInfo } from '../../domain/identity/token.js';
import { writeTransaction, type TransactionScope, type Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { insertToken } from './tokens.js';

export interface SignInLink {
  id: string;
  /** The secret code, shown this once; only its sha256 is stored. */
  code: string;
  expiresAt: string;
}

const UNKNOWN_CODE = 'sign-in link not found or expired';

/** Links that can no longer be used (expired, used or not) go whenever a new one is made. */
async function deleteExpiredLinks(tx: Tx, now: string): Promise<void> {
  await tx.deleteFrom('console_sign_in_links').where('expires_at', '<=', now).execute();
}

/**
 * A one-time sign-in link for the web console, for the calling user: a random code that
 * `exchangeSignInCode` trades, once and within 60 seconds, for a new token of the same user.
 * Only a person can be signed in: team, organization and audit trail tokens get 403.
 */
export async function createSignInLink(ctx: ServiceContext): Promise<SignInLink> {
  const actor = ctx.actor;
  if (actor.kind !== 'user')
    throw forbidden(
      'a sign-in link signs a person in to the console: use a user token (team and organization tokens belong to no person)',
    );
  return writeTransaction(ctx, async (tx) => {
    const now = ctx.clock.now();
    await deleteExpiredLinks(tx, now.toISOString());
    const code = generateSignInCode();
    const link = {
      id: newId('csl'),
      code_hash: hashToken(code),
      user_id: actor.userId,
      created_at: now.toISOString(),
      expires_at: new Date(now.getTime() + SIGN_IN_LINK_TTL_MS).toISOString(),
      used_at: null,
    };
    await tx.insertInto('console_sign_in_links').values(link).execute();
    return { id: link.id, code, expiresAt: link.expires_at };
  });
}

export interface SignIn {
  /** For the audit trail: what the transaction made. */
  id: string;
  token: TokenInfo;
  /** The user the code signed in. */
  actor: Actor;
}

/**
 * Trades a sign-in link's code for a new user token of the link's user ("berth console
 * sign-in", expiring after 8 hours). The code is marked used by one conditional update (unused
 * and unexpired), so it works once even when instances race on one database; an unknown, used
 * or expired code is a 404. The user's expired console tokens are deleted on the way.
 */
export async function exchangeSignInCode(scope: TransactionScope & { clock: Clock }, code: string): Promise<SignIn> {
  if (!looksLikeSignInCode(code)) throw notFound(UNKNOWN_CODE);
  const hash = hashToken(code);
  return writeTransaction(scope, async (tx) => {
    const now = scope.clock.now();
    const at = now.toISOString();
    const used = await tx
      .updateTable('console_sign_in_links')
      .set({ used_at: at })
      .where('code_hash', '=', hash)
      .where('used_at', 'is', null)
      .where('expires_at', '>', at)
      .executeTakeFirst();
    if (Number(used.numUpdatedRows) !== 1) throw notFound(UNKNOWN_CODE);
    const user = await tx
      .selectFrom('console_sign_in_links')
      .innerJoin('users', 'users.id', 'console_sign_in_links.user_id')
      .select(['users.id', 'users.username', 'users.site_admin'])
      .where('console_sign_in_links.code_hash', '=', hash)
      .executeTakeFirst();
    if (!user) throw notFound(UNKNOWN_CODE);
    await tx
      .deleteFrom('tokens')
      .where('user_id', '=', user.id)
      .where('kind', '=', 'user')
      .where('description', '=', CONSOLE_TOKEN_DESCRIPTION)
      .where('expired_at', '<=', at)
      .execute();
    const { n } = await tx
      .selectFrom('tokens')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', user.id)
      .where('kind', '=', 'user')
      .executeTakeFirstOrThrow();
    if (Number(n) >= MAX_TOKENS_PER_USER) throw tooMany('/data', 'A user has too many tokens', MAX_TOKENS_PER_USER);
    const token = await insertToken(tx, at, {
      kind: 'user',
      user_id: user.id,
      team_id: null,
      organization_id: null,
      description: CONSOLE_TOKEN_DESCRIPTION,
      expired_at: new Date(now.getTime() + CONSOLE_TOKEN_TTL_MS).toISOString(),
      created_by_type: 'users',
      created_by_id: user.id,
    });
    const actor: Actor = {
      kind: 'user',
      tokenId: token.id,
      userId: user.id,
      username: user.username,
      siteAdmin: user.site_admin === 1,
    };
    return { id: token.id, token, actor };
  });
}
