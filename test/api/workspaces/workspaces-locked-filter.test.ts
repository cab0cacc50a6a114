import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';

/** `filter[locked]` and `sort=locked-at` of the workspace list (the console's locks board). */
describe('workspace lists by lock: filter[locked] and sort=locked-at', () => {
  let api: TestApi;
  let owner: string;
  const ids = new Map<string, string>();
  const names = (body: any) => body.data.map((w: any) => w.attributes.name);
  const list = (query: string) => api.get(`/api/v2/organizations/acme/workspaces?${query}`, { token: owner });

  beforeAll(async () => {
    api = await TestApi.create();
    owner = (await api.userToken('owner')).token;
    expect((await api.createOrg('acme', owner)).status).toBe(201);
    for (const name of ['alpha', 'bravo', 'charlie', 'delta', 'echo']) {
      const res = await api.post(
        '/api/v2/organizations/acme/workspaces',
        { data: { type: 'workspaces', attributes: { name } } },
        { token: owner },
      );
      expect(res.status).toBe(201);
      ids.set(name, res.body.data.id);
    }
    // Locked in this order of time: delta (oldest), alpha, charlie (newest).
    const at = {
      delta: '2026-01-01T00:00:00.000Z',
      alpha: '2026-02-01T00:00:00.000Z',
      charlie: '2026-03-01T00:00:00.000Z',
    };
    for (const [name, time] of Object.entries(at)) {
      const res = await api.post(
        `/api/v2/workspaces/${ids.get(name)}/actions/lock`,
        { reason: `lock ${name}` },
        { token: owner },
      );
      expect(res.status).toBe(200);
      await api.store.db.updateTable('workspaces').set({ locked_at: time }).where('id', '=', ids.get(name)!).execute();
    }
  });
  afterAll(async () => {
    await api?.close();
  });

  it('filter[locked]=true lists only the locked workspaces, with their count', async () => {
    const res = await list('filter[locked]=true&sort=name');
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual(['alpha', 'charlie', 'delta']);
    expect(res.body.meta.pagination['total-count']).toBe(3);
    expect(res.body.data.every((w: any) => w.attributes.locked === true)).toBe(true);
  });

  it('filter[locked]=false lists only the unlocked ones', async () => {
    const res = await list('filter[locked]=false');
    expect(res.status).toBe(200);
    expect(names(res.body).sort()).toEqual(['bravo', 'echo']);
    expect(res.body.meta.pagination['total-count']).toBe(2);
  });

  it('sort=locked-at puts the oldest lock first, -locked-at the newest; unlocked workspaces last either way', async () => {
    const oldest = await list('filter[locked]=true&sort=locked-at');
    expect(names(oldest.body)).toEqual(['delta', 'alpha', 'charlie']);
    expect(oldest.body.data.map((w: any) => w.attributes['locked-at'])).toEqual([
      '2026-01-01T00:00:00.000Z',
      '2026-02-01T00:00:00.000Z',
      '2026-03-01T00:00:00.000Z',
    ]);
    const newest = await list('filter[locked]=true&sort=-locked-at');
    expect(names(newest.body)).toEqual(['charlie', 'alpha', 'delta']);
    const all = await list('sort=locked-at');
    expect(names(all.body).slice(0, 3)).toEqual(['delta', 'alpha', 'charlie']);
    expect(names(all.body).slice(3).sort()).toEqual(['bravo', 'echo']);
    const allDesc = await list('sort=-locked-at');
    expect(names(allDesc.body).slice(0, 3)).toEqual(['charlie', 'alpha', 'delta']);
  });

  it('pages the locks board with the pagination meta', async () => {
    const first = await list('filter[locked]=true&sort=locked-at&page[size]=2');
    expect(names(first.body)).toEqual(['delta', 'alpha']);
    expect(first.body.meta.pagination).toMatchObject({ 'total-count': 3, 'total-pages': 2, 'next-page': 2 });
    const second = await list('filter[locked]=true&sort=locked-at&page[size]=2&page[number]=2');
    expect(names(second.body)).toEqual(['charlie']);
  });

  it('combines with the other filters (a name search, flat tags)', async () => {
    const res = await list('filter[locked]=true&search[name]=lph');
    expect(names(res.body)).toEqual(['alpha']);
    const tagged = await api.post(
      `/api/v2/workspaces/${ids.get('bravo')}/relationships/tags`,
      { data: [{ type: 'tags', attributes: { name: 'prod' } }] },
      { token: owner },
    );
    expect(tagged.status).toBe(204);
    const unlockedProd = await list('filter[locked]=false&search[tags]=prod');
    expect(names(unlockedProd.body)).toEqual(['bravo']);
    expect(unlockedProd.body.meta.pagination['total-count']).toBe(1);
    const lockedProd = await list('filter[locked]=true&search[tags]=prod');
    expect(names(lockedProd.body)).toEqual([]);
    expect(lockedProd.body.meta.pagination['total-count']).toBe(0);
  });

  it('refuses a filter[locked] other than true or false with 400, naming the parameter', async () => {
    const res = await list('filter[locked]=yes');
    expect(res.status).toBe(400);
    expect(res.body.errors[0].detail).toBe('filter[locked] must be true or false');
    expect(res.body.errors[0].source).toEqual({ parameter: 'filter[locked]' });
  });
});
