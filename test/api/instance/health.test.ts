import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';

/** Health checks and database edge cases, on whichever engine the suite runs (SQLite or PostgreSQL). */
describe('health checks and database limits', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.create();
    expect((await api.createOrg('acme')).status).toBe(201);
  });
  afterAll(async () => {
    await api?.close();
  });

  it('/healthz answers 200 without a token', async () => {
    const r = await api.get('/healthz', { token: null });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'ok' });
  });

  it('/readyz answers 200 when the database answers and its migrations are current', async () => {
    const r = await api.get('/readyz', { token: null });
    expect(r.status).toBe(200);
    expect(r.body).toEqual({ status: 'ready' });
  });

  it('/readyz answers 503 with the reason while a migration is pending, and 200 again once applied', async () => {
    const row = await api.store.db
      .selectFrom('berth_migrations')
      .selectAll()
      .where('version', '=', 10)
      .executeTakeFirstOrThrow();
    await api.store.db.deleteFrom('berth_migrations').where('version', '=', 10).execute();
    try {
      const r = await api.get('/readyz', { token: null });
      expect(r.status).toBe(503);
      expect(r.headers.get('retry-after')).toBe('1');
      expect(r.body.errors[0]).toMatchObject({
        status: '503',
        title: 'service unavailable',
        detail: 'not ready: migrations pending: 10',
      });
    } finally {
      await api.store.db.insertInto('berth_migrations').values(row).execute();
    }
    expect((await api.get('/readyz', { token: null })).status).toBe(200);
  });

  it('refuses an integer beyond 32 bits with a 422 at the attribute, on either engine, and stores nothing', async () => {
    const r = await api.patch('/api/v2/organizations/acme', {
      data: { type: 'organizations', attributes: { 'session-timeout': 2 ** 31 } },
    });
    expect(r.status, r.text).toBe(422);
    expect(r.body.errors[0]).toMatchObject({ status: '422', source: { pointer: '/data/attributes/session-timeout' } });
    expect(r.body.errors[0].detail).toMatch(/less than or equal to 2147483647/);
    const org = await api.get('/api/v2/organizations/acme');
    expect(org.body.data.attributes['session-timeout']).toBeNull();
    const ok = await api.patch('/api/v2/organizations/acme', {
      data: { type: 'organizations', attributes: { 'session-timeout': 2 ** 31 - 1 } },
    });
    expect(ok.status, ok.text).toBe(200);
    expect(ok.body.data.attributes['session-timeout']).toBe(2 ** 31 - 1);
  });
});
