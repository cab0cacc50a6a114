import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ORG_DELETE_BATCH } from '../../../src/services/organizations/organizations.js';
import { TestApi } from '../../helpers/api.js';

const COUNT = 20_000;

/**
 * Deleting an organization with many workspaces: it goes in bounded batches, so the write lock
 * is never held (and, on SQLite, the event loop never blocked) for the whole of it; everything of
 * the organization is gone at the end, and nothing of another.
 */
describe('deleting an organization with 20,000 workspaces', () => {
  let api: TestApi;
  let otherWorkspace: string;

  beforeAll(async () => {
    api = await TestApi.create();
    expect((await api.createOrg('big')).status).toBe(201);
    expect((await api.createOrg('other')).status).toBe(201);
    const ws = await api.post('/api/v2/organizations/other/workspaces', {
      data: { type: 'workspaces', attributes: { name: 'kept' } },
    });
    expect(ws.status).toBe(201);
    otherWorkspace = ws.body.data.id;
    // Copies of one workspace made through the API, written straight into the database.
    const made = await api.post('/api/v2/organizations/big/workspaces', {
      data: { type: 'workspaces', attributes: { name: 'template' } },
    });
    expect(made.status).toBe(201);
    const { seq: _seq, ...template } = await api.store.db
      .selectFrom('workspaces')
      .selectAll()
      .where('id', '=', made.body.data.id)
      .executeTakeFirstOrThrow();
    for (let start = 1; start < COUNT; start += 500) {
      const rows = Array.from({ length: Math.min(500, COUNT - start) }, (_, i) => {
        const name = `ws-${start + i}`;
        return { ...template, id: `ws-bulk${String(start + i).padStart(9, '0')}`, name, name_lower: name };
      });
      await api.store.db.insertInto('workspaces').values(rows).execute();
    }
  }, 120_000);
  afterAll(async () => {
    await api?.close();
  });

  it('answers 204, deletes everything of it in batches without blocking the event loop, and keeps other organizations', async () => {
    expect(COUNT / ORG_DELETE_BATCH).toBeGreaterThan(10);
    // A ticker on the event loop's turns (not on time, which a loaded machine stretches): between
    // its batches the delete gives the loop back, so the ticker runs at least once per batch; in
    // one transaction the whole delete was one blocking statement and it would hardly run at all.
    let ticks = 0;
    let ticking = true;
    const tick = () => {
      if (!ticking) return;
      ticks++;
      setImmediate(tick);
    };
    setImmediate(tick);
    const started = performance.now();
    const res = await api.delete('/api/v2/organizations/big');
    const took = performance.now() - started;
    ticking = false;
    expect(res.status, res.text).toBe(204);
    expect(ticks, `${ticks} turns of the event loop in ${took.toFixed(0)} ms`).toBeGreaterThanOrEqual(
      COUNT / ORG_DELETE_BATCH - 1,
    );

    expect((await api.get('/api/v2/organizations/big')).status).toBe(404);
    const left = await api.store.db
      .selectFrom('workspaces')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(Number(left.n)).toBe(1);
    expect((await api.get(`/api/v2/workspaces/${otherWorkspace}`)).status).toBe(200);
    // Deleting it again: it is gone.
    expect((await api.delete('/api/v2/organizations/big')).status).toBe(404);
  });
});
