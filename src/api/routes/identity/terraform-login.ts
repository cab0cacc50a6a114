import { Hono } from 'hono';
import { BerthError, type ErrorItem } from '../../../domain/common/errors.js';
import {
  checkLoginRequest,
  type LoginRequest,
  type LoginRequestInput,
  type LoginRequestProblem,
} from '../../../domain/identity/terraform-login.js';
import { approveTerraformLogin, denyTerraformLogin } from '../../../services/identity/terraform-login.js';
import { readResource } from '../../body.js';
import { sendDocument, sendResource } from '../../documents.js';
import type { AppEnv } from '../../env.js';

/** Each parameter of an authorization request: its OAuth (query) name and its attribute name. */
const NAMES: Record<keyof LoginRequestInput, { query: string; attribute: string }> = {
  clientId: { query: 'client_id', attribute: 'client-id' },
  redirectUri: { query: 'redirect_uri', attribute: 'redirect-uri' },
  responseType: { query: 'response_type', attribute: 'response-type' },
  codeChallenge: { query: 'code_challenge', attribute: 'code-challenge' },
  codeChallengeMethod: { query: 'code_challenge_method', attribute: 'code-challenge-method' },
  state: { query: 'state', attribute: 'state' },
};
const FIELDS = Object.keys(NAMES) as (keyof LoginRequestInput)[];

function refused(problems: LoginRequestProblem[], item: (p: LoginRequestProblem) => ErrorItem): BerthError {
  return new BerthError(problems.map(item));
}

/** The request of the query string, or a 400 naming every bad parameter (a repeated one included). */
function requestOfQuery(params: URLSearchParams): LoginRequest {
  const input: LoginRequestInput = {};
  const problems: LoginRequestProblem[] = [];
  for (const field of FIELDS) {
    const values = params.getAll(NAMES[field].query);
    if (values.length > 1) problems.push({ field, detail: `${NAMES[field].query} must be given once` });
    input[field] = values[0];
  }
  const checked = checkLoginRequest(input);
  const all = Array.isArray(checked) ? [...problems, ...checked] : problems;
  if (all.length > 0 || Array.isArray(checked))
    throw refused(all, (p) => ({
      status: 400,
      title: 'invalid login request',
      detail: p.detail,
      parameter: NAMES[p.field].query,
    }));
  return checked;
}

/** The request of a JSON:API body, or a 422 per bad attribute. */
async function requestOfBody(c: Parameters<typeof readResource>[0], type: string): Promise<LoginRequest> {
  const { attributes } = await readResource(c, type);
  const input: LoginRequestInput = {};
  for (const field of FIELDS) input[field] = attributes[NAMES[field].attribute];
  const checked = checkLoginRequest(input);
  if (Array.isArray(checked))
    throw refused(checked, (p) => ({
      status: 422,
      title: 'invalid attribute',
      detail: p.detail,
      pointer: `/data/attributes/${NAMES[p.field].attribute}`,
    }));
  return checked;
}

/**
 * `GET /terraform-login/authorize` (the `authz` of `login.v1`, outside /api/v2: a browser opens
 * it): checks the CLI's authorization request and sends the browser to the console's approval
 * page (`/#/terraform-login?...`), where the person signs in and approves or denies. A bad request
 * is a 400 and never redirects, so the console only ever shows a request that can be approved.
 */
export function terraformLoginPageRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.get('/terraform-login/authorize', (c) => {
    const request = requestOfQuery(new URL(c.req.url).searchParams);
    const forward = new URLSearchParams({
      client_id: request.clientId,
      redirect_uri: request.redirectUri,
      response_type: 'code',
      code_challenge: request.codeChallenge,
      code_challenge_method: 'S256',
    });
    if (request.state !== null) forward.set('state', request.state);
    return new Response(null, {
      status: 302,
      headers: {
        location: `/#/terraform-login?${forward.toString()}`,
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
      },
    });
  });
  return r;
}

/**
 * The console's answers to a `terraform login` request (berth extension, a user token):
 * `POST /terraform-login/approvals` makes the code and answers where the browser goes next (the
 * CLI's callback with `code` and `state`); `POST /terraform-login/denials` stores nothing and
 * answers OAuth's `error=access_denied` redirect.
 */
export function terraformLoginApprovalRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();
  r.post('/terraform-login/approvals', async (c) => {
    const request = await requestOfBody(c, 'terraform-login-approvals');
    const approval = await approveTerraformLogin(c.get('ctx'), request);
    return sendResource(
      c,
      {
        id: approval.id,
        type: 'terraform-login-approvals',
        attributes: { 'redirect-to': approval.redirectTo, 'expires-at': approval.expiresAt },
      },
      { status: 201 },
    );
  });
  r.post('/terraform-login/denials', async (c) => {
    const request = await requestOfBody(c, 'terraform-login-denials');
    const denial = denyTerraformLogin(c.get('ctx'), request);
    return sendDocument(c, { meta: { 'redirect-to': denial.redirectTo } });
  });
  return r;
}
