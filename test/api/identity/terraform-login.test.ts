import { createHash, randomInt, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/api/app.js';
import { TestApi } from '../../helpers/api.js';
import { accessFixture, teamBody, type AccessFixture } from '../../helpers/access.js';

const P = '/api/v2';
const CALLBACK = 'http://localhost:10003/login';

/** A PKCE pair as the Terraform CLI makes it: a UUID and nine digits, and its S256 challenge. */
function proofKey(): { verifier: string; challenge: string } {
  const verifier = `${randomUUID()}.${String(randomInt(999_999_999)).padStart(9, '0')}`;
  return { verifier, challenge: createHash('sha256').update(verifier).digest('base64url') };
}

/** The parameters of the CLI's authorization URL. */
function authzParams(challenge: string, overrides: Record<string, string> = {}): Record<string, string> {
  return {
    client_id: 'terraform-cli',
    code_challenge: challenge,
    code_challenge_method: 'S256',
    redirect_uri: CALLBACK,
    response_type: 'code',
    state: randomUUID(),
    ...overrides,
  };
}

/** The console's body for an approval or a denial of those parameters. */
function decisionBody(type: string, params: Record<string, string>) {
  const attributes: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) attributes[k.replace(/_/g, '-')] = v;
  return { data: { type, attributes } };
}

/** `terraform login` against berth's endpoints, request by request (test/e2e/terraform/login.test.ts runs the real CLI). */
describe('terraform login (login.v1)', () => {
  let api: TestApi;
  let f: AccessFixture;
  let now: Date;
  let app: ReturnType<typeof createApp>;

  const send = async (
    method: string,
    path: string,
    init: { token?: string | null; headers?: Record<string, string>; body?: string } = {},
  ) => {
    const headers: Record<string, string> = { ...(init.headers ?? {}) };
    if (init.token) headers.Authorization = `Bearer ${init.token}`;
    const res = await app.fetch(new Request(`http://berth.test${path}`, { method, headers, body: init.body }));
    const text = await res.text();
    let body: any = null;
    try {
      body = text ? JSON.parse(text) : null;
    } catch {
      body = null;
    }
    return { status: res.status, headers: res.headers, text, body };
  };
  const jsonApi = (path: string, token: string | null, body: unknown) =>
    send('POST', `${P}${path}`, {
      token,
      headers: { 'Content-Type': 'application/vnd.api+json' },
      body: JSON.stringify(body),
    });
  const approve = (params: Record<string, string>, token: string | null = f.owner.token) =>
    jsonApi('/terraform-login/approvals', token, decisionBody('terraform-login-approvals', params));
  const deny = (params: Record<string, string>, token: string | null = f.owner.token) =>
    jsonApi('/terraform-login/denials', token, decisionBody('terraform-login-denials', params));
  /** The token request as golang.org/x/oauth2 sends it for the CLI (client_id in the form). */
  const exchange = (form: Record<string, string>, headers: Record<string, string> = {}) =>
    send('POST', `${P}/terraform-login/token`, {
      headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...headers },
      body: new URLSearchParams(form).toString(),
    });
  const grant = (code: string, verifier: string, overrides: Record<string, string> = {}) => ({
    grant_type: 'authorization_code',
    code,
    client_id: 'terraform-cli',
    code_verifier: verifier,
    redirect_uri: CALLBACK,
    ...overrides,
  });
  /** Approves a fresh request; answers its verifier, state and code. */
  const approved = async () => {
    const key = proofKey();
    const params = authzParams(key.challenge);
    const res = await approve(params);
    expect(res.status, res.text).toBe(201);
    const to = new URL(res.body.data.attributes['redirect-to']);
    return { ...key, state: params.state, code: to.searchParams.get('code')!, redirectTo: to };
  };
  const codeRows = () => api.store.db.selectFrom('terraform_login_codes').selectAll().execute();

  beforeAll(async () => {
    api = await TestApi.create();
    f = await accessFixture(api);
    app = createApp({ db: api.store.db, clock: { now: () => now } });
  });
  beforeEach(() => {
    now = new Date('2030-01-02T03:04:05.000Z');
  });
  afterAll(() => api.close());

  it('offers login.v1 in the discovery document', async () => {
    const res = await send('GET', '/.well-known/terraform.json');
    expect(res.status).toBe(200);
    expect(res.body['login.v1']).toEqual({
      client: 'terraform-cli',
      grant_types: ['authz_code'],
      authz: '/terraform-login/authorize',
      token: '/api/v2/terraform-login/token',
      ports: [10000, 10010],
    });
    expect(res.body['tfe.v2']).toBe('/api/v2/');
  });

  it("sends the CLI's authorization request on to the console's approval page, unchanged", async () => {
    const params = authzParams(proofKey().challenge);
    const res = await send('GET', `/terraform-login/authorize?${new URLSearchParams(params).toString()}`);
    expect(res.status).toBe(302);
    expect(res.headers.get('cache-control')).toBe('no-store');
    const location = res.headers.get('location')!;
    expect(location.startsWith('/#/terraform-login?')).toBe(true);
    const forwarded = Object.fromEntries(new URLSearchParams(location.slice(location.indexOf('?') + 1)));
    expect(forwarded).toEqual(params);
  });

  it('refuses a foreign or malformed authorization request with a 400 and never redirects', async () => {
    const { challenge } = proofKey();
    const cases: [Record<string, string>, string][] = [
      [{ redirect_uri: 'https://evil.example/login' }, 'redirect_uri'],
      [{ redirect_uri: 'http://evil.example:10003/login' }, 'redirect_uri'],
      [{ redirect_uri: 'http://localhost/login' }, 'redirect_uri'],
      [{ redirect_uri: 'http://user@localhost:10003/login' }, 'redirect_uri'],
      [{ redirect_uri: 'http://localhost.evil.example:10003/login' }, 'redirect_uri'],
      [{ client_id: 'someone-else' }, 'client_id'],
      [{ response_type: 'token' }, 'response_type'],
      [{ code_challenge_method: 'plain' }, 'code_challenge_method'],
      [{ code_challenge: 'short' }, 'code_challenge'],
    ];
    for (const [override, parameter] of cases) {
      const res = await send(
        'GET',
        `/terraform-login/authorize?${new URLSearchParams(authzParams(challenge, override)).toString()}`,
      );
      expect(res.status, JSON.stringify(override)).toBe(400);
      expect(res.headers.get('location')).toBeNull();
      expect(res.body.errors.map((e: any) => e.source.parameter)).toEqual([parameter]);
    }
    const twice = `${new URLSearchParams(authzParams(challenge)).toString()}&redirect_uri=${encodeURIComponent('http://127.0.0.1:10004/x')}`;
    const res = await send('GET', `/terraform-login/authorize?${twice}`);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].detail).toBe('redirect_uri must be given once');
  });

  it('approves for the signed-in user and trades the code, with its PKCE verifier, for a working token', async () => {
    const key = proofKey();
    const params = authzParams(key.challenge);
    const res = await approve(params);
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({
      type: 'terraform-login-approvals',
      id: expect.stringMatching(/^tlc-[A-Za-z0-9]{16}$/),
      attributes: { 'expires-at': '2030-01-02T03:05:05.000Z' },
    });
    const to = new URL(res.body.data.attributes['redirect-to']);
    expect(`${to.origin}${to.pathname}`).toBe(CALLBACK);
    expect(to.searchParams.get('state')).toBe(params.state);
    const code = to.searchParams.get('code')!;
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Only the code's hash is kept.
    expect(JSON.stringify(await codeRows())).not.toContain(code);

    const made = await exchange(grant(code, key.verifier));
    expect(made.status, made.text).toBe(200);
    expect(made.headers.get('content-type')).toBe('application/json');
    expect(made.headers.get('cache-control')).toBe('no-store');
    expect(made.body).toEqual({ access_token: expect.stringMatching(/^berth\./), token_type: 'bearer' });

    const me = await send('GET', `${P}/account/details`, { token: made.body.access_token });
    expect(me.status).toBe(200);
    expect(me.body.data.id).toBe(f.owner.userId);
    const mine = await send('GET', `${P}/users/${f.owner.userId}/authentication-tokens`, { token: f.owner.token });
    const listed = mine.body.data.find((t: any) => t.attributes.description === 'terraform login');
    expect(listed.attributes['expired-at']).toBeNull();
    expect(listed.relationships['created-by'].data).toEqual({ type: 'users', id: f.owner.userId });
  });

  it('accepts the client in HTTP Basic authentication instead of the form', async () => {
    const a = await approved();
    const { client_id: _, ...form } = grant(a.code, a.verifier);
    const basic = `Basic ${Buffer.from('terraform-cli:').toString('base64')}`;
    const made = await exchange(form, { Authorization: basic });
    expect(made.status, made.text).toBe(200);
  });

  it('refuses a wrong verifier (invalid_grant), and the code stays good for the right one', async () => {
    const a = await approved();
    const wrong = await exchange(grant(a.code, proofKey().verifier));
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual({
      error: 'invalid_grant',
      error_description: 'code_verifier does not match the code_challenge',
    });
    expect((await exchange(grant(a.code, a.verifier))).status).toBe(200);
  });

  it('works once: a reused code is invalid_grant', async () => {
    const a = await approved();
    expect((await exchange(grant(a.code, a.verifier))).status).toBe(200);
    const again = await exchange(grant(a.code, a.verifier));
    expect(again.status).toBe(400);
    expect(again.body).toEqual({
      error: 'invalid_grant',
      error_description: 'the authorization code is unknown, used or expired',
    });
  });

  it('expires 60 seconds after approval (by the injected clock)', async () => {
    const early = await approved();
    const late = await approved();
    now = new Date(now.getTime() + 59_999);
    expect((await exchange(grant(early.code, early.verifier))).status).toBe(200);
    now = new Date(now.getTime() + 1);
    const expired = await exchange(grant(late.code, late.verifier));
    expect(expired.status).toBe(400);
    expect(expired.body.error).toBe('invalid_grant');
    // Codes that can no longer be used go when the next one is made.
    await approved();
    const left = await codeRows();
    expect(left.every((r) => r.expires_at > now.toISOString())).toBe(true);
  });

  it('binds the code to its client and redirect URI', async () => {
    const a = await approved();
    const otherUri = await exchange(grant(a.code, a.verifier, { redirect_uri: 'http://localhost:10004/login' }));
    expect(otherUri.body).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/redirect_uri/),
    });
    const otherClient = await exchange(grant(a.code, a.verifier, { client_id: 'other' }));
    expect(otherClient.body).toMatchObject({
      error: 'invalid_grant',
      error_description: expect.stringMatching(/client_id/),
    });
    expect((await exchange(grant(a.code, a.verifier))).status).toBe(200);
  });

  it('refuses a foreign redirect at approval too (422), storing nothing', async () => {
    const before = (await codeRows()).length;
    const res = await approve(authzParams(proofKey().challenge, { redirect_uri: 'https://evil.example/cb' }));
    expect(res.status).toBe(422);
    expect(res.body.errors[0].source.pointer).toBe('/data/attributes/redirect-uri');
    const denied = await deny(authzParams(proofKey().challenge, { redirect_uri: 'https://evil.example/cb' }));
    expect(denied.status).toBe(422);
    expect((await codeRows()).length).toBe(before);
  });

  it('a denial stores nothing and answers OAuth access_denied to the CLI', async () => {
    const before = (await codeRows()).length;
    const params = authzParams(proofKey().challenge);
    const res = await deny(params);
    expect(res.status, res.text).toBe(200);
    const to = new URL(res.body.meta['redirect-to']);
    expect(`${to.origin}${to.pathname}`).toBe(CALLBACK);
    expect(Object.fromEntries(to.searchParams)).toEqual({ error: 'access_denied', state: params.state });
    expect((await codeRows()).length).toBe(before);
  });

  it('only a person approves: team tokens get 403, no token 401', async () => {
    const team = await send('POST', `${P}/organizations/acme/teams`, {
      token: f.owner.token,
      headers: { 'Content-Type': 'application/vnd.api+json' },
      body: JSON.stringify(teamBody('ops')),
    });
    const teamToken = (
      await send('POST', `${P}/teams/${team.body.data.id}/authentication-token`, { token: f.owner.token })
    ).body.data.attributes.token;
    const params = authzParams(proofKey().challenge);
    const res = await approve(params, teamToken);
    expect(res.status, res.text).toBe(403);
    expect(res.body.errors[0].detail).toMatch(/user token/);
    expect((await approve(params, null)).status).toBe(401);
    expect((await deny(params, null)).status).toBe(401);
  });

  it('answers malformed token requests with OAuth errors (400), never a 500', async () => {
    const a = await approved();
    const cases: [Record<string, string>, string][] = [
      [{ grant_type: 'password' }, 'unsupported_grant_type'],
      [{ grant_type: '' }, 'invalid_request'],
      [{ code_verifier: '' }, 'invalid_request'],
      [{ code_verifier: 'too-short' }, 'invalid_request'],
      [{ redirect_uri: '' }, 'invalid_request'],
      [{ client_id: '' }, 'invalid_request'],
      [{ code: '' }, 'invalid_request'],
      [{ code: 'not-a-code' }, 'invalid_grant'],
      [{ code: 'A'.repeat(43) }, 'invalid_grant'],
    ];
    for (const [override, error] of cases) {
      const res = await exchange(grant(a.code, a.verifier, override));
      expect(res.status, JSON.stringify(override)).toBe(400);
      expect(res.body.error, JSON.stringify(override)).toBe(error);
      expect(typeof res.body.error_description).toBe('string');
    }
    const asJson = await send('POST', `${P}/terraform-login/token`, {
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(grant(a.code, a.verifier)),
    });
    expect(asJson.status).toBe(400);
    expect(asJson.body.error).toBe('invalid_request');
    // None of them spent the code.
    expect((await exchange(grant(a.code, a.verifier))).status).toBe(200);
  });

  it('records the approval, the denial and the token in the audit trail, naming the user and never the secrets', async () => {
    const key = proofKey();
    const params = authzParams(key.challenge);
    expect((await deny(params)).status).toBe(200);
    const res = await approve(params);
    const code = new URL(res.body.data.attributes['redirect-to']).searchParams.get('code')!;
    const made = await exchange(grant(code, key.verifier));
    expect(made.status).toBe(200);
    const rows = await api.store.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', 'like', 'terraform-login.%')
      .orderBy('seq', 'desc')
      .limit(3)
      .execute();
    expect(rows.map((r) => [r.action, r.actor_kind, r.actor_id, r.actor_name])).toEqual([
      ['terraform-login.token', 'user', f.owner.userId, 'owner'],
      ['terraform-login.approve', 'user', f.owner.userId, 'owner'],
      ['terraform-login.deny', 'user', f.owner.userId, 'owner'],
    ]);
    expect(rows[0].target_type).toBe('authentication-tokens');
    expect(rows[1]).toMatchObject({ target_type: 'terraform-login-approvals', target_id: res.body.data.id });
    const text = JSON.stringify(rows);
    expect(text).not.toContain(code);
    expect(text).not.toContain(made.body.access_token);
    // A refused token request leaves no record.
    const count = (await api.store.db.selectFrom('audit_events').select('seq').execute()).length;
    expect((await exchange(grant(code, key.verifier))).status).toBe(400);
    expect((await api.store.db.selectFrom('audit_events').select('seq').execute()).length).toBe(count);
  });

  it("a user's codes go with the user", async () => {
    const carol = await api.userToken('carol');
    expect((await approve(authzParams(proofKey().challenge), carol.token)).status).toBe(201);
    const del = await send('DELETE', `${P}/admin/users/${carol.userId}`, { token: api.adminToken });
    expect(del.status, del.text).toBe(204);
    expect((await codeRows()).filter((r) => r.user_id === carol.userId)).toEqual([]);
  });
});
