import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { createWorkspace } from '../../helpers/workspaces.js';

/*
 * sort=current-run.created-at is read as two index ranges (workspaces with a current run by its
 * time, then the run-less in creation order): every page size, page and direction must give the
 * order of a sort of the whole list, including pages that straddle the two ranges and ties.
 */
describe('workspace list: sort=current-run.created-at across pages', () => {
  let api: TestApi;
  const workspaces: { name: string; seq: number; at: string | null }[] = [];

  beforeAll(async () => {
    api = await TestApi.create();
    await api.createOrg('acme');
    const times = ['2025-03-01T00:00:00.000Z', '2025-01-01T00:00:00.000Z', '2025-02-01T00:00:00.000Z'];
    for (let i = 0; i < 17; i++) {
      const name = `ws-${String((i * 5) % 17).padStart(2, '0')}`;
      const id = (await createWorkspace(api, 'acme', { name })).body.data.id as string;
      // Every third has no current run; the others share three times (ties).
      const at = i % 3 === 0 ? null : times[i % times.length];
      await api.store.db.updateTable('workspaces').set({ current_run_created_at: at }).where('id', '=', id).execute();
      const row = await api.store.db
        .selectFrom('workspaces')
        .select('seq')
        .where('id', '=', id)
        .executeTakeFirstOrThrow();
      workspaces.push({ name, seq: row.seq, at });
    }
  });
  afterAll(() => api.close());

  const expected = (descending: boolean) => {
    const sign = descending ? -1 : 1;
    return [...workspaces]
      .sort((a, b) => {
        if ((a.at === null) !== (b.at === null)) return a.at === null ? 1 : -1;
        if (a.at !== b.at) return sign * (a.at! < b.at! ? -1 : 1);
        return sign * (a.seq - b.seq);
      })
      .map((w) => w.name);
  };

  it('pages in the order of the whole sort, both ways, at every page size', async () => {
    for (const descending of [false, true]) {
      for (const size of [1, 2, 3, 5, 7, 11, 17, 20]) {
        const seen: string[] = [];
        for (let page = 1; page <= Math.ceil(17 / size) + 1; page++) {
          const res = await api.get(
            `/api/v2/organizations/acme/workspaces?sort=${descending ? '-' : ''}current-run.created-at&page[size]=${size}&page[number]=${page}`,
          );
          expect(res.status).toBe(200);
          expect(res.body.meta.pagination['total-count']).toBe(17);
          seen.push(...(res.body.data as { attributes: { name: string } }[]).map((w) => w.attributes.name));
        }
        expect(seen, `descending ${descending}, page size ${size}`).toEqual(expected(descending));
      }
    }
  });

  it('applies the other conditions to both parts', async () => {
    const res = await api.get(
      '/api/v2/organizations/acme/workspaces?sort=current-run.created-at&search[name]=1&page[size]=3',
    );
    const all = expected(false).filter((n) => n.includes('1'));
    expect((res.body.data as { attributes: { name: string } }[]).map((w) => w.attributes.name)).toEqual(
      all.slice(0, 3),
    );
    expect(res.body.meta.pagination['total-count']).toBe(all.length);
  });
});
