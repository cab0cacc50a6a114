import { createHash, randomBytes } from 'node:crypto';
import { connect } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/api/app.js';
import {
  KnownTokens,
  RateLimiter,
  rateLimitHeaders,
  rateLimitKey,
  retryAfterSeconds,
  subjectKey,
  tokenKey,
} from '../../../src/api/rate-limit.js';
import { startServer, type RunningServer } from '../../../src/api/serve.js';
import { LOCAL_SITE_ADMIN } from '../../../src/domain/permissions/actor.js';
import { hashToken } from '../../../src/domain/identity/token.js';
import { openStore } from '../../../src/store/open.js';
import { tempDb } from '../../helpers/cli.js';

describe('the rate limiter', () => {
  it('admits `limit` requests per key in a one-second window, then refuses until the window ends', () => {
    let now = 10_000;
    const rl = new RateLimiter(3, { now: () => now });
    const seen = [rl.take('k'), rl.take('k'), rl.take('k')];
    expect(seen.map((d) => d.allowed)).toEqual([true, true, true]);
    expect(seen.map((d) => d.remaining)).toEqual([2, 1, 0]);
    now += 400;
    const refused = rl.take('k');
    expect(refused).toEqual({ allowed: false, limit: 3, remaining: 0, resetSeconds: 0.6 });
    expect(retryAfterSeconds(refused)).toBe(1);
    // Another key has its own budget.
    expect(rl.take('other').allowed).toBe(true);
    now += 600;
    const fresh = rl.take('k');
    expect(fresh).toMatchObject({ allowed: true, remaining: 2, resetSeconds: 1 });
  });

  it('forgets idle keys (memory holds only the keys of the last second)', () => {
    let now = 0;
    const rl = new RateLimiter(5, { now: () => now });
    for (let i = 0; i < 1000; i++) rl.take(`idle-${i}`);
    expect(rl.size).toBe(1000);
    now += 1000;
    // Each request drops a few expired keys from the front: a few hundred requests clear them all.
    for (let i = 0; i < 300; i++) rl.take('busy');
    expect(rl.size).toBe(1);
  });

  it('never holds more than maxKeys keys, dropping the oldest window first', () => {
    let now = 0;
    const rl = new RateLimiter(1, { now: () => now, maxKeys: 100 });
    for (let i = 0; i < 500; i++) {
      now += 1;
      rl.take(`k${i}`);
    }
    expect(rl.size).toBe(100);
    // The newest key is still counted: its second request in the window is refused.
    expect(rl.take('k499').allowed).toBe(false);
  });

  it("keys a known token's request by its subject, found by the token's hash (never the token); others by address", () => {
    const token = 'berth.abcdefghijklmn.0123456789012345678901234567890123456789';
    const known = new KnownTokens();
    const req = (path: string, authorization?: string, method = 'GET', query = '') => ({
      method,
      path,
      query,
      authorization,
      address: '127.0.0.1',
    });
    // Unknown: only the API can tell (null: counted once it has read the token).
    expect(rateLimitKey(req('/api/v2/organizations', `Bearer ${token}`), known)).toBeNull();
    known.add(
      tokenKey(`Bearer ${token}`)!,
      subjectKey({ kind: 'user', tokenId: 'at-1', userId: 'user-1', username: 'u', siteAdmin: false }),
    );
    expect(tokenKey(`Bearer ${token}`)).toBe(`t:${hashToken(token)}`);
    expect(rateLimitKey(req('/api/v2/organizations', `Bearer ${token}`), known)).toBe('u:user-1');
    expect(rateLimitKey(req('/api/v2/organizations', `bearer   ${token}  `), known)).toBe('u:user-1');
    // No token, or a malformed header, on a route that needs one: a failed authentication.
    expect(rateLimitKey(req('/api/v2/organizations'), known)).toBe('x:127.0.0.1');
    expect(rateLimitKey(req('/api/v2/organizations', 'Basic Zm9vOmJhcg=='), known)).toBe('x:127.0.0.1');
    // The routes that read no token count against the address, whatever header they carry.
    expect(rateLimitKey(req('/api/v2/ping'), known)).toBe('a:127.0.0.1');
    expect(rateLimitKey(req('/api/v2/ping', 'Bearer berth.made.up'), known)).toBe('a:127.0.0.1');
    expect(rateLimitKey(req('/api/v2/console/sign-ins', undefined, 'POST'), known)).toBe('a:127.0.0.1');
    expect(rateLimitKey(req('/api/v2/terraform-login/token', undefined, 'POST'), known)).toBe('a:127.0.0.1');
    // A state URL by its signature: its version when valid, a failed authentication when not.
    const valid = (id: string, kind: string, use: string, q: { signature?: string }) =>
      id === 'sv-1' && kind === 'state' && use === 'download' && q.signature === 'good';
    const state = (query: string) => req('/api/v2/state-versions/sv-1/content', undefined, 'GET', query);
    expect(rateLimitKey(state('expires=1&signature=good'), known, valid)).toBe('s:sv-1');
    expect(rateLimitKey(state('expires=1&signature=bad'), known, valid)).toBe('x:127.0.0.1');
    expect(subjectKey({ kind: 'team', tokenId: 'at-2', teamId: 'team-1', organizationId: 'org-1' })).toBe(
      'team:team-1',
    );
    expect(subjectKey({ kind: 'organization', tokenId: 'at-3', organizationId: 'org-1' })).toBe('org:org-1');
  });

  it('gives the three X-RateLimit headers, Reset in seconds with milliseconds', () => {
    expect(rateLimitHeaders({ allowed: true, limit: 30, remaining: 12, resetSeconds: 0.25 })).toEqual({
      'X-RateLimit-Limit': '30',
      'X-RateLimit-Remaining': '12',
      'X-RateLimit-Reset': '0.250',
    });
  });
});

describe('rate limiting in serve', () => {
  const tmp = tempDb();
  const NOW = new Date('2026-06-30T12:00:00.000Z');
  // A clock that stands still: every request falls in one window, whatever the machine's speed.
  const frozen = { now: () => NOW };
  let limited: RunningServer;
  let open: RunningServer;
  let admin: string;
  const lines: string[] = [];

  beforeAll(async () => {
    limited = await startServer({
      host: '127.0.0.1',
      port: 0,
      database: tmp.db,
      log: (l) => lines.push(l),
      clock: frozen,
    });
    admin = limited.createdToken!;
    open = await startServer({
      host: '127.0.0.1',
      port: 0,
      database: tmp.db,
      log: () => {},
      clock: frozen,
      rateLimit: 0,
    });
  });
  afterAll(async () => {
    await limited?.close();
    await open?.close();
    tmp.cleanup();
  });

  const get = (base: string, path: string, token?: string) =>
    fetch(`${base}${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} });

  it('allows 30 requests per second per token by default, then answers 429 with Retry-After and a JSON:API error', async () => {
    const statuses: number[] = [];
    let last: Response | null = null;
    for (let i = 0; i < 30; i++) {
      const res = await get(limited.url, '/api/v2/organizations', admin);
      statuses.push(res.status);
      expect(res.headers.get('x-ratelimit-limit')).toBe('30');
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(29 - i));
      expect(Number(res.headers.get('x-ratelimit-reset'))).toBeGreaterThan(0);
      await res.arrayBuffer();
    }
    expect(statuses.every((s) => s === 200)).toBe(true);
    last = await get(limited.url, '/api/v2/organizations', admin);
    expect(last.status).toBe(429);
    expect(last.headers.get('retry-after')).toBe('1');
    expect(last.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(last.headers.get('content-type')).toContain('application/vnd.api+json');
    const doc = (await last.json()) as any;
    expect(doc.errors[0]).toMatchObject({ status: '429', title: 'Too many requests' });
    // Access log lines are written in batches, a few milliseconds later.
    await expect.poll(() => lines.join('\n'), { timeout: 5000 }).toMatch(/^\S+Z GET \/api\/v2\/organizations 429 /m);
  });

  it('counts each token the API accepted on its own; requests without one, or with one it never accepted, by client address', async () => {
    const anon = await get(limited.url, '/api/v2/ping');
    expect(anon.status).toBe(204);
    expect(anon.headers.get('x-ratelimit-remaining')).toBe('29');
    // The ping checks no token: this one is not known to be valid, so it counts against the address.
    const other = await get(limited.url, '/api/v2/ping', 'berth.some.other-token');
    expect(other.status).toBe(204);
    expect(other.headers.get('x-ratelimit-remaining')).toBe('28');
    // A valid token's first request is its own (given back to the address once the API accepted it).
    const { token } = await userToken(open.url, admin, 'counted');
    const first = await get(limited.url, '/api/v2/organizations', token);
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-remaining')).toBe('29');
    expect((await get(limited.url, '/api/v2/organizations', token)).headers.get('x-ratelimit-remaining')).toBe('28');
    expect((await get(limited.url, '/api/v2/ping')).headers.get('x-ratelimit-remaining')).toBe('27');
  });

  it('puts the headers on error answers too, and leaves routes outside /api/v2 alone', async () => {
    const unauthorized = await get(limited.url, '/api/v2/organizations', 'berth.unknown.token');
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers.get('x-ratelimit-limit')).toBe('30');
    const discovery = await get(limited.url, '/.well-known/terraform.json');
    expect(discovery.status).toBe(200);
    expect(discovery.headers.has('x-ratelimit-limit')).toBe(false);
  });

  it('is off with a rate limit of 0: no headers, no 429', async () => {
    for (let i = 0; i < 40; i++) {
      const res = await get(open.url, '/api/v2/ping', admin);
      expect(res.status).toBe(204);
      expect(res.headers.has('x-ratelimit-limit')).toBe(false);
    }
  });

  it('rejects a negative or fractional limit at start-up', async () => {
    await expect(
      startServer({ host: '127.0.0.1', port: 0, database: tmp.db, log: () => {}, rateLimit: -1 }),
    ).rejects.toThrow(/rate limit/);
    await expect(
      startServer({ host: '127.0.0.1', port: 0, database: tmp.db, log: () => {}, rateLimit: 1.5 }),
    ).rejects.toThrow(/rate limit/);
  });
});

/** A user and a token of theirs, made through the API as the site administrator. */
async function userToken(base: string, admin: string, username: string): Promise<{ token: string; userId: string }> {
  const headers = { Authorization: `Bearer ${admin}`, 'Content-Type': 'application/vnd.api+json' };
  const user = await fetch(`${base}/api/v2/admin/users`, {
    method: 'POST',
    headers,
    body: JSON.stringify({ data: { type: 'users', attributes: { username, email: `${username}@acme.test` } } }),
  });
  expect(user.status).toBe(201);
  const userId = ((await user.json()) as any).data.id;
  const minted = await fetch(`${base}/api/v2/users/${userId}/authentication-tokens`, { method: 'POST', headers });
  expect(minted.status).toBe(201);
  return { token: ((await minted.json()) as any).data.attributes.token, userId };
}

describe('one budget per user, team or organization, not per token (HCP Terraform: per user)', () => {
  const tmp = tempDb();
  const NOW = new Date('2026-06-30T12:00:00.000Z');
  let limited: RunningServer;
  let open: RunningServer;
  let admin: string;

  beforeAll(async () => {
    limited = await startServer({
      host: '127.0.0.1',
      port: 0,
      database: tmp.db,
      log: () => {},
      clock: { now: () => NOW },
      rateLimit: 5,
    });
    admin = limited.createdToken!;
    open = await startServer({ host: '127.0.0.1', port: 0, database: tmp.db, log: () => {}, rateLimit: 0 });
  });
  afterAll(async () => {
    await limited?.close();
    await open?.close();
    tmp.cleanup();
  });

  const status = async (token: string) => {
    const res = await fetch(`${limited.url}/api/v2/organizations`, { headers: { Authorization: `Bearer ${token}` } });
    await res.arrayBuffer();
    return { status: res.status, remaining: res.headers.get('x-ratelimit-remaining') };
  };
  const post = async (path: string, body?: unknown) => {
    const res = await fetch(`${open.url}/api/v2${path}`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${admin}`, 'Content-Type': 'application/vnd.api+json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    expect(res.status, path).toBeLessThan(300);
    return (await res.json()) as any;
  };

  it("counts every token of one user against the user's budget: twenty tokens bring no more requests", async () => {
    const { userId, token: first } = await userToken(open.url, admin, 'many-tokens');
    const tokens = [first];
    for (let i = 0; i < 19; i++)
      tokens.push((await post(`/users/${userId}/authentication-tokens`)).data.attributes.token);
    const answers = [];
    for (const token of tokens) answers.push(await status(token));
    // Five in the window for the user, whichever tokens carried them; the other fifteen are 429.
    expect(answers.filter((a) => a.status === 200)).toHaveLength(5);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(15);
    expect(answers.slice(0, 5).map((a) => a.remaining)).toEqual(['4', '3', '2', '1', '0']);
    // Known now, each token is counted against the user before the API reads it (and the read cache answers).
    expect(await status(tokens[0])).toEqual({ status: 429, remaining: '0' });
    // Another user keeps a budget of their own.
    const other = await userToken(open.url, admin, 'someone-else');
    expect(await status(other.token)).toEqual({ status: 200, remaining: '4' });
  });

  it("counts a team's tokens against the team, an organization token against its organization", async () => {
    await post('/organizations', {
      data: { type: 'organizations', attributes: { name: 'acme', email: 'ops@acme.test' } },
    });
    const team = await post('/organizations/acme/teams', {
      data: { type: 'teams', attributes: { name: 'deployers' } },
    });
    const teamTokens = [];
    for (let i = 0; i < 3; i++)
      teamTokens.push(
        (
          await post(`/teams/${team.data.id}/authentication-tokens`, {
            data: { type: 'authentication-tokens', attributes: { description: `deploy ${i}` } },
          })
        ).data.attributes.token,
      );
    const orgToken = (await post('/organizations/acme/authentication-token')).data.attributes.token;
    const teamAnswers = [];
    for (let i = 0; i < 7; i++) teamAnswers.push((await status(teamTokens[i % 3])).status);
    expect(teamAnswers).toEqual([200, 200, 200, 200, 200, 429, 429]);
    // The organization's token is a subject of its own, not the team's.
    expect(await status(orgToken)).toEqual({ status: 200, remaining: '4' });
  });
});

describe('made-up credentials are limited without starving tokenless routes, state URLs or new tokens', () => {
  const tmp = tempDb();
  const NOW = new Date('2026-06-30T12:00:00.000Z');
  let server: RunningServer;
  let open: RunningServer;

  beforeAll(async () => {
    server = await startServer({
      host: '127.0.0.1',
      port: 0,
      database: tmp.db,
      log: () => {},
      clock: { now: () => NOW },
    });
    open = await startServer({ host: '127.0.0.1', port: 0, database: tmp.db, log: () => {}, rateLimit: 0 });
  });
  afterAll(async () => {
    await server?.close();
    await open?.close();
    tmp.cleanup();
  });

  /** A state version pushed through the unlimited server: its signed download URL, on the limited one. */
  async function stateDownloadUrl(admin: string): Promise<string> {
    const headers = { Authorization: `Bearer ${admin}`, 'Content-Type': 'application/vnd.api+json' };
    const post = async (path: string, body: unknown) => {
      const res = await fetch(`${open.url}/api/v2${path}`, { method: 'POST', headers, body: JSON.stringify(body) });
      const text = await res.text();
      expect(res.status, text).toBeLessThan(300);
      return JSON.parse(text || '{}');
    };
    await post('/organizations', {
      data: { type: 'organizations', attributes: { name: 'acme', email: 'a@acme.test' } },
    });
    const ws = await post('/organizations/acme/workspaces', {
      data: { type: 'workspaces', attributes: { name: 'w' } },
    });
    await post(`/workspaces/${ws.data.id}/actions/lock`, {});
    const state = Buffer.from(JSON.stringify({ version: 4, serial: 1, lineage: 'l', outputs: {}, resources: [] }));
    const sv = await post(`/workspaces/${ws.data.id}/state-versions`, {
      data: {
        type: 'state-versions',
        attributes: {
          serial: 1,
          md5: createHash('md5').update(state).digest('hex'),
          state: state.toString('base64'),
        },
      },
    });
    const url = new URL(sv.data.attributes['hosted-state-download-url']);
    return `${server.url}${url.pathname}${url.search}`;
  }

  it('2,000 requests with fresh random tokens: 30 are answered 401, the rest 429; ping, a signed state URL, a new token and a known one still get in', async () => {
    const admin = server.createdToken!;
    const download = await stateDownloadUrl(admin);
    // The site administrator's token is learned by its first request.
    expect(
      (await fetch(`${server.url}/api/v2/organizations`, { headers: { Authorization: `Bearer ${admin}` } })).status,
    ).toBe(200);
    const statuses: number[] = [];
    for (let batch = 0; batch < 40; batch++) {
      const answers = await Promise.all(
        Array.from({ length: 50 }, async () => {
          const res = await fetch(`${server.url}/api/v2/organizations`, {
            headers: {
              Authorization: `Bearer berth.${randomBytes(8).toString('hex')}.${randomBytes(24).toString('hex')}`,
            },
          });
          await res.arrayBuffer();
          return res.status;
        }),
      );
      statuses.push(...answers);
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(1970);
    const spent = await fetch(`${server.url}/api/v2/organizations`, { headers: { Authorization: 'Bearer berth.x.y' } });
    expect(spent.status).toBe(429);
    expect(spent.headers.get('retry-after')).toBe('1');
    expect(spent.headers.get('x-ratelimit-remaining')).toBe('0');
    // Requests without a token to a route that needs one, and forged state URLs, are failed authentications too.
    expect((await fetch(`${server.url}/api/v2/organizations`)).status).toBe(429);
    expect((await fetch(download.replace(/signature=[^&]+/, 'signature=forged'))).status).toBe(429);
    // None of it spent the budget of the address's tokenless routes...
    const ping = await fetch(`${server.url}/api/v2/ping`);
    expect(ping.status).toBe(204);
    expect(ping.headers.get('x-ratelimit-remaining')).toBe('29');
    // ...of a signed state URL (its signature is its credential)...
    const state = await fetch(download);
    expect(state.status).toBe(200);
    expect(state.headers.get('x-ratelimit-remaining')).toBe('29');
    // ...of a token minted just now (its first request counts against its user, never the junk)...
    const { token } = await userToken(open.url, admin, 'newcomer');
    const first = await fetch(`${server.url}/api/v2/organizations`, { headers: { Authorization: `Bearer ${token}` } });
    expect(first.status).toBe(200);
    expect(first.headers.get('x-ratelimit-remaining')).toBe('29');
    // ...or of a known token.
    const known = await fetch(`${server.url}/api/v2/organizations`, { headers: { Authorization: `Bearer ${admin}` } });
    expect(known.status).toBe(200);
    expect(known.headers.get('x-ratelimit-remaining')).toBe('28');
  });
});

/** Sends one request as raw bytes (any request-target form) and gives the status of the answer. */
function rawStatus(port: number, target: string, headers = ''): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () =>
      socket.write(`GET ${target} HTTP/1.1\r\nHost: berth.test\r\n${headers}Connection: close\r\n\r\n`),
    );
    let data = '';
    socket.setEncoding('utf8');
    socket.on('data', (d) => (data += String(d)));
    socket.on('error', reject);
    socket.on('close', () => resolve(Number(/^HTTP\/1\.1 (\d{3}) /.exec(data)?.[1] ?? 0)));
  });
}

describe('other spellings of an /api/v2 request target do not get past the rate limit', () => {
  const tmp = tempDb();
  const NOW = new Date('2026-06-30T12:00:00.000Z');
  let server: RunningServer;
  let port: number;

  beforeAll(async () => {
    server = await startServer({
      host: '127.0.0.1',
      port: 0,
      database: tmp.db,
      log: () => {},
      clock: { now: () => NOW },
      rateLimit: 3,
    });
    port = Number(new URL(server.url).port);
  });
  afterAll(async () => {
    await server?.close();
    tmp.cleanup();
  });

  // Each reaches the ping route (or any other under /api/v2) as the plain path does: the limit
  // counts the path the app routes on, not the bytes of the request line.
  const SPELLINGS = [
    'http://berth.test/api/v2/ping',
    'https://berth.test/api/v2/ping',
    '/%61pi/v2/ping',
    '/api/%76%32/ping',
    '/./api/v2/ping',
    '/api/v2/./ping',
    '/x/../api/v2/ping',
  ];

  it('counts an absolute-form, percent-encoded or dot-segment target against the same bucket', async () => {
    // With a fresh window (a frozen clock: one window for the whole test) each spelling is served.
    for (const target of SPELLINGS.slice(0, 3)) expect(await rawStatus(port, target), target).toBe(204);
    // The address's 3 requests are spent: every spelling, and the plain path, is refused alike.
    for (const target of [...SPELLINGS, '/api/v2/ping']) expect(await rawStatus(port, target), target).toBe(429);
    // Made-up tokens change nothing; a path outside the API (health checks) is never limited.
    expect(await rawStatus(port, SPELLINGS[0], 'Authorization: Bearer berth.made.up\r\n')).toBe(429);
    expect(await rawStatus(port, '/healthz')).toBe(200);
  });
});

describe('local mode (the app in-process)', () => {
  it('is never rate limited', async () => {
    const store = await openStore(':memory:');
    const app = createApp({ db: store.db, localActor: LOCAL_SITE_ADMIN });
    for (let i = 0; i < 100; i++) {
      const res = await app.fetch(new Request('http://local/api/v2/organizations'));
      expect(res.status).toBe(200);
      expect(res.headers.has('x-ratelimit-limit')).toBe(false);
    }
    await store.close();
  });
});
