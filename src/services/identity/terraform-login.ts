import type { Actor } from '../../domain/permissions/actor.js';
import type { Clock } from '../../domain/common/clock.js';
import { forbidden } from '../../domain/common/errors.js';
import { newId } from '../../domain/common/ids.js';
import { MAX_TOKENS_PER_USER } from '../../domain/common/limits.js';
import {
  generateLoginCode,
  LOGIN_CODE_TTL_MS,
  looksLikeLoginCode,
  looksLikeVerifier,
  OAuthError,
  redirectWith,
  TERRAFORM_LOGIN_TOKEN_DESCRIPTION,
  verifierMatches,
  type LoginRequest,
} from '../../domain/identity/terraform-login.js';
import { hashToken, type TokenInfo } from '../../domain/identity/token.js';
import { writeTransaction, type TransactionScope } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { insertToken } from './tokens.js';

/** An approved authorization request: where the browser goes next (the CLI's callback, with the code). */
export interface LoginApproval {
  id: string;
  redirectTo: string;
  expiresAt: string;
}

/** Only a person approves a login: team, organization and audit trail tokens belong to no one. */
function approvingUser(ctx: ServiceContext): Extract<Actor, { kind: 'user' }> {
  const actor = ctx.actor;
  if (actor.kind !== 'user')
    throw forbidden(
      'terraform login mints a token of a person: sign in with a user token (team and organization tokens belong to no person)',
    );
  return actor;
}

/**
 * The signed-in user approves a `terraform login` request: a code bound to that user, the
 * client, the redirect URI and the PKCE challenge, valid 60 seconds, once. Only its sha256 is
 * stored; codes that can no longer be used go whenever a new one is made.
 */
export async function approveTerraformLogin(ctx: ServiceContext, request: LoginRequest): Promise<LoginApproval> {
  const user = approvingUser(ctx);
  return writeTransaction(ctx, async (tx) => {
    const now = ctx.clock.now();
    const at = now.toISOString();
    await tx.deleteFrom('terraform_login_codes').where('expires_at', '<=', at).execute();
    const code = generateLoginCode();
    const row = {
      id: newId('tlc'),
      code_hash: hashToken(code),
      user_id: user.userId,
      client_id: request.clientId,
      redirect_uri: request.redirectUri,
      code_challenge: request.codeChallenge,
      created_at: at,
      expires_at: new Date(now.getTime() + LOGIN_CODE_TTL_MS).toISOString(),
      used_at: null,
    };
    await tx.insertInto('terraform_login_codes').values(row).execute();
    return {
      id: row.id,
      redirectTo: redirectWith(request.redirectUri, { code, state: request.state }),
      expiresAt: row.expires_at,
    };
  });
}

/** The signed-in user refuses a request: nothing is stored; the answer OAuth sends back (`access_denied`). */
export function denyTerraformLogin(ctx: ServiceContext, request: LoginRequest): { redirectTo: string } {
  approvingUser(ctx);
  return { redirectTo: redirectWith(request.redirectUri, { error: 'access_denied', state: request.state }) };
}

/** The token request of the authorization-code grant, as the CLI sends it. */
export interface LoginCodeGrant {
  code: string;
  clientId: string;
  redirectUri: string;
  codeVerifier: string;
}

export interface LoginToken {
  /** For the audit trail: what the transaction made. */
  id: string;
  token: TokenInfo;
  /** The user who approved the code. */
  actor: Actor;
}

const UNKNOWN_CODE = 'the authorization code is unknown, used or expired';

/**
 * Trades an authorization code for a new user token ("terraform login", no expiry) of the user
 * who approved it, when the request names the code's client and redirect URI and its
 * code_verifier answers the code's PKCE challenge; every refusal is an OAuth `invalid_grant`.
 * The code is spent by one conditional update (unused and unexpired), so it works once even when
 * instances race on one database. A refused request spends nothing.
 */
export async function exchangeTerraformLoginCode(
  scope: TransactionScope & { clock: Clock },
  grant: LoginCodeGrant,
): Promise<LoginToken> {
  if (!looksLikeVerifier(grant.codeVerifier))
    throw new OAuthError('invalid_request', 'code_verifier must be 43 to 128 unreserved characters');
  if (!looksLikeLoginCode(grant.code)) throw new OAuthError('invalid_grant', UNKNOWN_CODE);
  const hash = hashToken(grant.code);
  return writeTransaction(scope, async (tx) => {
    const now = scope.clock.now();
    const at = now.toISOString();
    const code = await tx
      .selectFrom('terraform_login_codes')
      .innerJoin('users', 'users.id', 'terraform_login_codes.user_id')
      .select([
        'terraform_login_codes.id',
        'terraform_login_codes.client_id',
        'terraform_login_codes.redirect_uri',
        'terraform_login_codes.code_challenge',
        'users.id as user_id',
        'users.username',
        'users.site_admin',
      ])
      .where('terraform_login_codes.code_hash', '=', hash)
      .where('terraform_login_codes.used_at', 'is', null)
      .where('terraform_login_codes.expires_at', '>', at)
      .executeTakeFirst();
    if (!code) throw new OAuthError('invalid_grant', UNKNOWN_CODE);
    if (code.client_id !== grant.clientId)
      throw new OAuthError('invalid_grant', 'client_id is not the one the code was issued to');
    if (code.redirect_uri !== grant.redirectUri)
      throw new OAuthError('invalid_grant', 'redirect_uri is not the one the code was issued to');
    if (!verifierMatches(grant.codeVerifier, code.code_challenge))
      throw new OAuthError('invalid_grant', 'code_verifier does not match the code_challenge');
    const spent = await tx
      .updateTable('terraform_login_codes')
      .set({ used_at: at })
      .where('id', '=', code.id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (Number(spent.numUpdatedRows) !== 1) throw new OAuthError('invalid_grant', UNKNOWN_CODE);
    const { n } = await tx
      .selectFrom('tokens')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('user_id', '=', code.user_id)
      .where('kind', '=', 'user')
      .executeTakeFirstOrThrow();
    if (Number(n) >= MAX_TOKENS_PER_USER)
      throw new OAuthError('invalid_request', `a user has at most ${MAX_TOKENS_PER_USER} tokens: revoke one first`);
    const token = await insertToken(tx, at, {
      kind: 'user',
      user_id: code.user_id,
      team_id: null,
      organization_id: null,
      description: TERRAFORM_LOGIN_TOKEN_DESCRIPTION,
      created_by_type: 'users',
      created_by_id: code.user_id,
    });
    const actor: Actor = {
      kind: 'user',
      tokenId: token.id,
      userId: code.user_id,
      username: code.username,
      siteAdmin: code.site_admin === 1,
    };
    return { id: token.id, token, actor };
  });
}
