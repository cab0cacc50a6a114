import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pg from 'pg';
import { startServe, type ServeProcess } from '../helpers/serve.js';
import { freshPostgresSchema, TEST_DATABASE_URL } from '../helpers/store.js';

/**
 * Two `berth serve` instances on one PostgreSQL database, started at the same moment on an empty
 * schema: the migrations run once, both become ready, and what one writes the other reads at once.
 */
describe('two serve instances on one PostgreSQL database', () => {
  let schema: Awaited<ReturnType<typeof freshPostgresSchema>>;
  let a: ServeProcess;
  let b: ServeProcess;
  let token: string;

  const call = async (server: ServeProcess, method: string, path: string, body?: unknown) => {
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/vnd.api+json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, text, body: text === '' ? null : JSON.parse(text) };
  };

  beforeAll(async () => {
    schema = await freshPostgresSchema();
    [a, b] = await Promise.all([startServe(schema.url), startServe(schema.url)]);
    // The site-administrator token is created once, by whichever instance got there first.
    const tokens = [a.token, b.token].filter((t): t is string => t !== null);
    expect(tokens).toHaveLength(1);
    token = tokens[0]!;
  });
  afterAll(async () => {
    await a?.stop();
    await b?.stop();
    await schema?.drop();
  });

  it('applied every migration exactly once', async () => {
    const client = new pg.Client({ connectionString: schema.url });
    await client.connect();
    try {
      const rows = (
        await client.query('select version, count(*)::int as n from berth_migrations group by version order by version')
      ).rows;
      expect(rows.length).toBeGreaterThan(5);
      expect(rows.every((r) => r.n === 1)).toBe(true);
    } finally {
      await client.end();
    }
  });

  it('names its database when it starts', () => {
    expect(a.stderr()).toMatch(/berth listening on http:\/\/\S+ \(self-hosted edition\), database postgres:\/\/\S+/);
  });

  it('answers /healthz and /readyz on both instances, without a token', async () => {
    for (const server of [a, b]) {
      const live = await fetch(`${server.url}/healthz`);
      expect(live.status).toBe(200);
      expect(await live.json()).toEqual({ status: 'ok' });
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({ status: 'ready' });
    }
  });

  it('shows through one instance what was created through the other, at once', async () => {
    const org = await call(a, 'POST', '/api/v2/organizations', {
      data: { type: 'organizations', attributes: { name: 'shared', email: 's@x.test' } },
    });
    expect(org.status, org.text).toBe(201);
    for (let i = 0; i < 20; i++) {
      const [writer, reader] = i % 2 === 0 ? [a, b] : [b, a];
      const created = await call(writer, 'POST', '/api/v2/organizations/shared/workspaces', {
        data: { type: 'workspaces', attributes: { name: `ws-${i}` } },
      });
      expect(created.status, created.text).toBe(201);
      const read = await call(reader, 'GET', `/api/v2/workspaces/${created.body.data.id}`);
      expect(read.status, read.text).toBe(200);
      expect(read.body.data.attributes.name).toBe(`ws-${i}`);
      const locked = await call(reader, 'POST', `/api/v2/workspaces/${created.body.data.id}/actions/lock`, {
        reason: 'x',
      });
      expect(locked.status, locked.text).toBe(200);
      const again = await call(writer, 'POST', `/api/v2/workspaces/${created.body.data.id}/actions/lock`, {
        reason: 'y',
      });
      expect(again.status, again.text).toBe(409);
    }
    const list = await call(b, 'GET', '/api/v2/organizations/shared/workspaces?page%5Bsize%5D=100');
    expect(list.body.meta.pagination['total-count']).toBe(20);
  });

  it('never serves from one instance a cached answer older than a write through the other', async () => {
    const created = await call(a, 'POST', '/api/v2/organizations/shared/workspaces', {
      data: { type: 'workspaces', attributes: { name: 'cached' } },
    });
    const path = `/api/v2/workspaces/${created.body.data.id}`;
    for (let i = 0; i < 10; i++) {
      // Twice, so that the second answer may come from b's read cache.
      await call(b, 'GET', path);
      expect((await call(b, 'GET', path)).body.data.attributes.locked).toBe(i % 2 === 1);
      const action = i % 2 === 0 ? 'lock' : 'unlock';
      expect(
        (await call(a, 'POST', `${path}/actions/${action}`, action === 'lock' ? { reason: 'x' } : undefined)).status,
      ).toBe(200);
      expect((await call(b, 'GET', path)).body.data.attributes.locked).toBe(i % 2 === 0);
    }
  });

  it('refuses one name twice when both instances create it at the same moment', async () => {
    const attempts = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        call(i % 2 === 0 ? a : b, 'POST', '/api/v2/organizations/shared/workspaces', {
          data: { type: 'workspaces', attributes: { name: 'Contested' } },
        }),
      ),
    );
    const statuses = attempts.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);
    expect(statuses.filter((s) => s !== 201 && s !== 422)).toEqual([]);
  });
});

describe('the PostgreSQL test database', () => {
  it('is the one the suite was started with', () => {
    expect(TEST_DATABASE_URL).toMatch(/^postgres(ql)?:\/\//);
  });
});
