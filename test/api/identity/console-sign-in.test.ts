import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/api/app.js';
import { TestApi } from '../../helpers/api.js';
import { accessFixture, teamBody, type AccessFixture } from '../../helpers/access.js';
import { createOrganizationToken } from '../../helpers/org-token.js';

const P = '/api/v2';
const signInBody = (code: unknown) => ({ data: { type: 'console-sign-ins', attributes: { code } } });

/** The console's one-time sign-in links: `berth login --web` makes one, the console trades it for a token. */
describe('console sign-in links', () => {
  let api: TestApi;
  let f: AccessFixture;
  let now: Date;
  let app: ReturnType<typeof createApp>;

  const call = async (method: string, path: string, token: string | null, body?: unknown) => {
    const headers: Record<string, string> = { 'Content-Type': 'application/vnd.api+json' };
    if (token) headers.Authorization = `Bearer ${token}`;
    const res = await app.fetch(
      new Request(`http://berth.test${path}`, {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
      }),
    );
    const text = await res.text();
    return { status: res.status, text, body: text ? JSON.parse(text) : null };
  };
  const newLink = async (token = f.owner.token) => call('POST', `${P}/console/sign-in-links`, token);
  const signIn = (code: unknown) => call('POST', `${P}/console/sign-ins`, null, signInBody(code));

  beforeAll(async () => {
    api = await TestApi.create();
    f = await accessFixture(api);
    now = new Date();
    app = createApp({ db: api.store.db, clock: { now: () => now } });
  });
  afterAll(() => api.close());

  it('makes a link (a 43+ character url-safe code, 60 s) and trades it once for an 8-hour token of the same user', async () => {
    const link = await newLink();
    expect(link.status, link.text).toBe(201);
    expect(link.body.data).toMatchObject({
      type: 'console-sign-in-links',
      id: expect.stringMatching(/^csl-[A-Za-z0-9]{16}$/),
      attributes: {
        code: expect.stringMatching(/^[A-Za-z0-9_-]{43,}$/),
        'expires-at': new Date(now.getTime() + 60_000).toISOString(),
      },
    });
    const code = link.body.data.attributes.code as string;

    const made = await signIn(code);
    expect(made.status, made.text).toBe(201);
    expect(made.body.data).toMatchObject({
      type: 'authentication-tokens',
      id: expect.stringMatching(/^at-[A-Za-z0-9]{16}$/),
      attributes: {
        token: expect.stringMatching(/^berth\./),
        'expired-at': new Date(now.getTime() + 8 * 3600_000).toISOString(),
        description: 'berth console sign-in',
      },
      relationships: { 'created-by': { data: { type: 'users', id: f.owner.userId } } },
    });
    const token = made.body.data.attributes.token as string;
    const me = await call('GET', `${P}/account/details`, token);
    expect(me.status).toBe(200);
    expect(me.body.data.id).toBe(f.owner.userId);
    // A user token like any other: listed among the user's tokens, and revocable by its user (sign-out).
    const mine = await call('GET', `${P}/users/${f.owner.userId}/authentication-tokens`, f.owner.token);
    expect(mine.body.data.map((t: { id: string }) => t.id)).toContain(made.body.data.id);

    // Once only.
    const again = await signIn(code);
    expect(again.status).toBe(404);
    expect(again.body.errors[0].detail).toBe('sign-in link not found or expired');

    expect((await call('DELETE', `${P}/authentication-tokens/${made.body.data.id}`, token)).status).toBe(204);
    expect((await call('GET', `${P}/account/details`, token)).status).toBe(401);
  });

  it('a code raced by several sign-ins at once is traded once', async () => {
    const code = (await newLink()).body.data.attributes.code;
    const answers = await Promise.all(Array.from({ length: 6 }, () => signIn(code)));
    expect(answers.map((a) => a.status).sort()).toEqual([201, 404, 404, 404, 404, 404]);
  });

  it('the minted token stops working after 8 hours', async () => {
    const code = (await newLink()).body.data.attributes.code;
    const token = (await signIn(code)).body.data.attributes.token;
    const start = now;
    try {
      now = new Date(start.getTime() + 8 * 3600_000 - 1);
      expect((await call('GET', `${P}/account/details`, token)).status).toBe(200);
      now = new Date(start.getTime() + 8 * 3600_000);
      expect((await call('GET', `${P}/account/details`, token)).status).toBe(401);
    } finally {
      now = start;
    }
  });

  it('an expired code is refused (404), and expired links are deleted when the next one is made', async () => {
    const code = (await newLink()).body.data.attributes.code;
    const start = now;
    try {
      now = new Date(start.getTime() + 60_000);
      const late = await signIn(code);
      expect(late.status).toBe(404);
      expect(late.body.errors[0].detail).toBe('sign-in link not found or expired');
      expect((await newLink()).status).toBe(201);
      const left = await api.store.db
        .selectFrom('console_sign_in_links')
        .select('expires_at')
        .where('expires_at', '<=', now.toISOString())
        .execute();
      expect(left).toEqual([]);
    } finally {
      now = start;
    }
  });

  it('an unknown or malformed code is 404; a body without a code is 422; nothing is minted', async () => {
    const before = await api.store.db.selectFrom('tokens').select('id').execute();
    for (const code of ['A'.repeat(43), 'short', 'x'.repeat(5000), '../../etc']) {
      const res = await signIn(code);
      expect(res.status, code).toBe(404);
    }
    for (const code of [undefined, null, 42, '']) {
      const res = await signIn(code);
      expect(res.status, String(code)).toBe(422);
      expect(res.body.errors[0].source.pointer).toBe('/data/attributes/code');
    }
    expect((await call('POST', `${P}/console/sign-ins`, null, { data: { type: 'users' } })).status).toBe(422);
    expect((await call('POST', `${P}/console/sign-ins`, null)).status).toBe(400);
    expect(await api.store.db.selectFrom('tokens').select('id').execute()).toHaveLength(before.length);
  });

  it('stores only the hash of a code', async () => {
    const code = (await newLink()).body.data.attributes.code as string;
    const rows = await api.store.db.selectFrom('console_sign_in_links').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(code);
  });

  it('only a user token may make a link: team, organization and audit trail tokens get 403; no token 401', async () => {
    const team = await call('POST', `${P}/organizations/acme/teams`, f.owner.token, teamBody('ops'));
    const teamToken = (await call('POST', `${P}/teams/${team.body.data.id}/authentication-token`, f.owner.token)).body
      .data.attributes.token;
    const orgToken = await createOrganizationToken(api, 'acme');
    const auditToken = (
      await call('POST', `${P}/organizations/acme/authentication-token?token=audit-trails`, f.owner.token)
    ).body.data.attributes.token;
    for (const token of [teamToken, orgToken, auditToken]) {
      const res = await newLink(token);
      expect(res.status, res.text).toBe(403);
      expect(res.body.errors[0].detail).toMatch(/use a user token/);
    }
    expect((await newLink('berth.nope')).status).toBe(401);
    expect((await call('POST', `${P}/console/sign-in-links`, null)).status).toBe(401);
  });

  it('records both in the audit trail, naming the user and never the code', async () => {
    const link = await newLink();
    const code = link.body.data.attributes.code as string;
    const made = await signIn(code);
    expect(made.status).toBe(201);
    const rows = await api.store.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', 'in', ['console.sign-in-link.create', 'console.sign-in'])
      .orderBy('seq', 'desc')
      .limit(2)
      .execute();
    expect(rows.map((r) => [r.action, r.actor_kind, r.actor_id, r.actor_name])).toEqual([
      ['console.sign-in', 'user', f.owner.userId, 'owner'],
      ['console.sign-in-link.create', 'user', f.owner.userId, 'owner'],
    ]);
    expect(rows[0]).toMatchObject({ target_type: 'authentication-tokens', target_id: made.body.data.id });
    expect(rows[0].actor_token_id).toBe(made.body.data.id);
    expect(JSON.stringify(rows)).not.toContain(code);
    expect(JSON.stringify(rows)).not.toContain(made.body.data.attributes.token);
  });

  it("a user's links go with the user", async () => {
    const carol = await api.userToken('carol');
    expect((await newLink(carol.token)).status).toBe(201);
    const del = await call('DELETE', `${P}/admin/users/${carol.userId}`, api.adminToken);
    expect(del.status, del.text).toBe(204);
    const left = await api.store.db
      .selectFrom('console_sign_in_links')
      .select('id')
      .where('user_id', '=', carol.userId)
      .execute();
    expect(left).toEqual([]);
  });
});
