import type { Context } from 'hono';
import { Hono } from 'hono';
import { systemClock } from '../../../domain/common/clock.js';
import { BerthError } from '../../../domain/common/errors.js';
import { OAuthError } from '../../../domain/identity/terraform-login.js';
import {
  exchangeTerraformLoginCode,
  type LoginCodeGrant,
  type LoginToken,
} from '../../../services/identity/terraform-login.js';
import type { CommitHook } from '../../../store/transaction.js';
import type { AppEnv, AppOptions } from '../../env.js';
import { requestHeader } from '../../node-headers.js';

/** An OAuth answer: JSON, never cached (RFC 6749 5.1), with the request's id. */
function oauthAnswer(c: Context<AppEnv>, status: 200 | 400, body: Record<string, string>): Response {
  const headers: Record<string, string> = {
    'content-type': 'application/json',
    'cache-control': 'no-store',
    pragma: 'no-cache',
  };
  const requestId = c.get('requestId');
  if (requestId) headers['x-request-id'] = requestId;
  return new Response(JSON.stringify(body), { status, headers });
}

const FORM = 'application/x-www-form-urlencoded';

/** The client id of HTTP Basic authentication (RFC 6749 2.3.1: form-encoded, then base64), if any. */
function basicClientId(authorization: string | undefined): string | null {
  const match = /^Basic\s+([A-Za-z0-9+/=]+)$/i.exec(authorization ?? '');
  if (!match) return null;
  const pair = Buffer.from(match[1], 'base64').toString('utf8');
  const colon = pair.indexOf(':');
  try {
    return decodeURIComponent((colon === -1 ? pair : pair.slice(0, colon)).replace(/\+/g, ' '));
  } catch {
    return null;
  }
}

/** The token request's form: an OAuth `invalid_request` unless it is well-formed and complete. */
async function readGrant(c: Context<AppEnv>): Promise<LoginCodeGrant> {
  const media = (requestHeader(c, 'content-type') ?? '').split(';')[0].trim().toLowerCase();
  if (media !== FORM) throw new OAuthError('invalid_request', `Content-Type must be ${FORM}`);
  const form = new URLSearchParams(await c.req.text());
  const one = (name: string): string | null => {
    const values = form.getAll(name);
    if (values.length > 1) throw new OAuthError('invalid_request', `${name} must be given once`);
    return values[0] || null;
  };
  const grantType = one('grant_type');
  if (grantType === null) throw new OAuthError('invalid_request', 'grant_type is required');
  if (grantType !== 'authorization_code')
    throw new OAuthError('unsupported_grant_type', 'grant_type must be authorization_code');
  const fromHeader = basicClientId(requestHeader(c, 'authorization'));
  const fromForm = one('client_id');
  if (fromHeader !== null && fromForm !== null && fromHeader !== fromForm)
    throw new OAuthError('invalid_request', 'client_id differs from the client of the Authorization header');
  const clientId = fromForm ?? fromHeader;
  const code = one('code');
  const redirectUri = one('redirect_uri');
  const codeVerifier = one('code_verifier');
  const missing = [
    ['code', code],
    ['client_id', clientId],
    ['redirect_uri', redirectUri],
    ['code_verifier', codeVerifier],
  ].find(([, value]) => value === null);
  if (missing) throw new OAuthError('invalid_request', `${missing[0]} is required`);
  return { code: code!, clientId: clientId!, redirectUri: redirectUri!, codeVerifier: codeVerifier! };
}

/**
 * `POST /terraform-login/token` (the `token` of `login.v1`; no token: the code and its PKCE
 * verifier are the credential; counted by the rate limit per client address): trades an approved
 * authorization code for a new user token, answered as OAuth does (`{"access_token",
 * "token_type": "bearer"}`). Every refusal is a 400 with OAuth's `{"error", "error_description"}`.
 */
export function terraformLoginTokenRoutes(options: Pick<AppOptions, 'db' | 'clock'>): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.post('/terraform-login/token', async (c) => {
    try {
      const grant = await readGrant(c);
      const hook = c.get('commitHook') as CommitHook | undefined;
      // The audit record names the user who approved the code: known only inside the transaction.
      const commitHook: CommitHook | undefined = hook && {
        async beforeCommit(tx, result) {
          c.set('actor', (result as LoginToken).actor);
          await hook.beforeCommit(tx, result);
        },
        afterCommit: () => hook.afterCommit(),
      };
      const made = await exchangeTerraformLoginCode(
        { db: options.db, clock: options.clock ?? systemClock, commitHook },
        grant,
      );
      return oauthAnswer(c, 200, { access_token: made.token.token!, token_type: 'bearer' });
    } catch (err) {
      if (!(err instanceof BerthError) || err.status >= 500) throw err;
      const error = err instanceof OAuthError ? err.code : 'invalid_request';
      return oauthAnswer(c, 400, { error, error_description: err.detail ?? err.title });
    }
  });
  return r;
}
