import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../src/api/app.js';
import { LOCAL_SITE_ADMIN } from '../../src/domain/permissions/actor.js';
import { openStore, type Store } from '../../src/store/open.js';
import { freshPostgresSchema } from '../helpers/store.js';

/**
 * PostgreSQL drops berth's connections (a restart, a failover, an administrator): requests in
 * flight get a 503 JSON:API error, never a 500 or a crash, and the pool reconnects for the next.
 */
describe('losing the PostgreSQL connections', () => {
  let schema: Awaited<ReturnType<typeof freshPostgresSchema>>;
  let store: Store;
  const unexpected: unknown[] = [];
  let app: ReturnType<typeof createApp>;
  const get = async (path: string) => {
    const res = await app.fetch(new Request(`http://berth.test${path}`));
    return { status: res.status, body: (await res.json()) as any, retryAfter: res.headers.get('retry-after') };
  };

  beforeAll(async () => {
    schema = await freshPostgresSchema();
    const url = new URL(schema.url);
    url.searchParams.set('application_name', 'berth-connection-loss');
    store = await openStore(url.toString());
    app = createApp({ db: store.db, localActor: LOCAL_SITE_ADMIN, onUnexpectedError: (e) => unexpected.push(e) });
  });
  afterAll(async () => {
    await store?.close();
    await schema?.drop();
  });

  const terminate = async (condition: string) => {
    const admin = new pg.Client({ connectionString: schema.url });
    await admin.connect();
    try {
      const { rows } = await admin.query(
        `select pg_terminate_backend(pid) as done from pg_stat_activity where application_name = 'berth-connection-loss' and ${condition}`,
      );
      return rows.length;
    } finally {
      await admin.end();
    }
  };

  it('survives idle connections cut by the server: the next request is served on a new one', async () => {
    expect((await get('/api/v2/organizations')).status).toBe(200);
    expect(await terminate("state = 'idle'")).toBeGreaterThan(0);
    await new Promise((r) => setTimeout(r, 200));
    expect((await get('/api/v2/organizations')).status).toBe(200);
    expect((await get('/readyz')).status).toBe(200);
    expect(unexpected).toEqual([]);
  });

  it('answers a query cut in flight as 503 with Retry-After, then serves again', async () => {
    expect((await get('/api/v2/organizations')).status).toBe(200);
    // Hold a connection in a slow query, and cut that connection from outside.
    const slow = sql`select pg_sleep(5)`.execute(store.db).catch((e: unknown) => e);
    await new Promise((r) => setTimeout(r, 200));
    expect(await terminate("query like 'select pg_sleep%'")).toBe(1);
    const err = (await slow) as { code?: string };
    expect(err.code).toBe('57P01');
    // The error, as the API answers it.
    const { databaseErrorAnswer } = await import('../../src/store/database-errors.js');
    const answer = databaseErrorAnswer(err)!;
    expect(answer.status).toBe(503);
    expect(answer.headers['Retry-After']).toBe('1');
    // The pool replaced the connection: the next requests are served.
    const next = await get('/api/v2/organizations');
    expect(next.status).toBe(200);
    expect((await get('/readyz')).status).toBe(200);
    expect(unexpected).toEqual([]);
  });
});
