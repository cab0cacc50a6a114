import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { createProject } from '../../helpers/projects.js';

const names = (body: any): string[] => body.data.map((p: any) => p.attributes.name);
const link = (number: number, size = 20) =>
  expect.stringMatching(
    new RegExp(`^http.*/api/v2/organizations/big/projects\\?page%5Bnumber%5D=${number}&page%5Bsize%5D=${size}$`),
  );

describe('GET /organizations/:org/projects', () => {
  let api: TestApi;
  /** Creation order: names deliberately not in alphabetical order, with mixed case. */
  const created = Array.from({ length: 45 }, (_, i) => {
    const n = (i * 7) % 45;
    return `${n % 2 === 0 ? 'p' : 'P'}-${String(n).padStart(2, '0')}`;
  });
  /** The default order: creation order, with the Default Project last. */
  const all = [...created, 'Default Project'];
  const list = (query: string) => api.get(`/api/v2/organizations/big/projects${query}`);

  beforeAll(async () => {
    api = await TestApi.create();
    expect((await api.createOrg('big')).status).toBe(201);
    for (const name of created) await createProject(api, 'big', { name });
  });
  afterAll(() => api.close());

  describe('pagination (45 projects plus the Default Project)', () => {
    it('gives 20 per page by default with meta, status-counts and absolute links', async () => {
      const res = await list('');
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(20);
      const pagination = {
        'current-page': 1,
        'page-size': 20,
        'prev-page': null,
        'next-page': 2,
        'total-pages': 3,
        'total-count': 46,
      };
      expect(res.body.meta).toEqual({ pagination, ...pagination, 'status-counts': { total: 46, matching: 46 } });
      expect(res.body.links).toEqual({ self: link(1), first: link(1), prev: null, next: link(2), last: link(3) });
    });

    it('gives the middle and the last page', async () => {
      const second = await list('?page[number]=2');
      expect(second.body.meta.pagination).toMatchObject({ 'current-page': 2, 'prev-page': 1, 'next-page': 3 });
      const last = await list('?page%5Bnumber%5D=3&page%5Bsize%5D=20');
      expect(last.body.data).toHaveLength(6);
      expect(last.body.meta.pagination).toEqual({
        'current-page': 3,
        'page-size': 20,
        'prev-page': 2,
        'next-page': null,
        'total-pages': 3,
        'total-count': 46,
      });
      expect(last.body.links).toMatchObject({ prev: link(2), next: null, last: link(3) });
    });

    it('returns every project once, in creation order with the Default Project last, across the pages', async () => {
      const pages = await Promise.all([1, 2, 3].map((n) => list(`?page[number]=${n}`)));
      expect(pages.flatMap((p) => names(p.body))).toEqual(all);
    });

    it('answers an empty page beyond the last', async () => {
      const res = await list('?page[number]=9');
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([]);
      expect(res.body.meta.pagination).toMatchObject({
        'current-page': 9,
        'total-pages': 3,
        'next-page': null,
        'total-count': 46,
      });
    });

    it('honours page[size] up to 100 and rejects 101', async () => {
      expect(names((await list('?page[size]=100')).body)).toEqual(all);
      const res = await list('?page[size]=101');
      expect(res.status).toBe(422);
      expect(res.body.errors[0]).toMatchObject({
        status: '422',
        title: 'invalid attribute',
        detail: 'page[size] must be between 1 and 100',
      });
    });
  });

  describe('sort', () => {
    const byName = [...all].sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1));

    it('sorts by name case-insensitively with sort=name', async () => {
      expect(names((await list('?sort=name&page[size]=100')).body)).toEqual(byName);
    });

    it('reverses with sort=-name', async () => {
      expect(names((await list('?sort=-name&page[size]=100')).body)).toEqual([...byName].reverse());
    });

    it('pages a sorted list', async () => {
      expect(names((await list('?sort=name&page[size]=10&page[number]=2')).body)).toEqual(byName.slice(10, 20));
    });

    it('rejects another sort key with 400', async () => {
      const res = await list('?sort=created-at');
      expect(res.status).toBe(400);
      expect(res.body.errors).toEqual([
        {
          status: '400',
          title: 'bad request',
          detail: 'Invalid sort parameter: use name or -name',
          source: { parameter: 'sort' },
        },
      ]);
    });
  });

  describe('q and filter[names]', () => {
    it('q matches a case-insensitive substring of the name', async () => {
      const res = await list('?q=p-1&page[size]=100');
      const expected = all.filter((n) => n.toLowerCase().includes('p-1'));
      expect(expected).toHaveLength(10);
      expect(names(res.body)).toEqual(expected);
      expect(res.body.meta['status-counts']).toEqual({ total: 46, matching: 10 });
      expect(res.body.meta.pagination['total-count']).toBe(10);
    });

    it('q treats % and _ literally', async () => {
      expect(names((await list('?q=_')).body)).toEqual([]);
      expect(names((await list('?q=%25')).body)).toEqual([]);
    });

    it('filter[names] matches whole names case-insensitively, comma-separated', async () => {
      const res = await list('?filter[names]=P-01,p-02,default project,nope');
      expect(names(res.body).sort()).toEqual(['Default Project', 'P-01', 'p-02']);
    });

    it('filter[names] wins over q', async () => {
      expect(names((await list('?q=zzz&filter%5Bnames%5D=p-04')).body)).toEqual(['p-04']);
    });

    it('filter[names] does not match substrings', async () => {
      expect(names((await list('?filter[names]=p-0')).body)).toEqual([]);
    });
  });

  describe('filter[tagged] and include=effective_tag_bindings', () => {
    const ids: Record<string, string> = {};
    const tagged = (query: string) => api.get(`/api/v2/organizations/tagged/projects${query}`);

    beforeAll(async () => {
      expect((await api.createOrg('tagged')).status).toBe(201);
      ids.alpha = (
        await createProject(api, 'tagged', { name: 'alpha' }, [
          { key: 'env', value: 'prod' },
          { key: 'team', value: 'web' },
        ])
      ).id;
      ids.beta = (await createProject(api, 'tagged', { name: 'beta' }, [{ key: 'env', value: 'prod' }])).id;
      ids.gamma = (
        await createProject(api, 'tagged', { name: 'gamma' }, [
          { key: 'env', value: 'dev' },
          { key: 'team', value: 'web' },
        ])
      ).id;
      ids.delta = (await createProject(api, 'tagged', { name: 'delta' }, [{ key: 'solo' }])).id;
    });

    it('filters by key', async () => {
      expect(names((await tagged('?filter[tagged][0][key]=env')).body)).toEqual(['alpha', 'beta', 'gamma']);
    });

    it('filters by key and value', async () => {
      expect(names((await tagged('?filter[tagged][0][key]=env&filter[tagged][0][value]=prod')).body)).toEqual([
        'alpha',
        'beta',
      ]);
    });

    it('treats an empty value as any value (what go-tfe sends)', async () => {
      expect(
        names((await tagged('?filter%5Btagged%5D%5B0%5D%5Bkey%5D=env&filter%5Btagged%5D%5B0%5D%5Bvalue%5D=')).body),
      ).toEqual(['alpha', 'beta', 'gamma']);
    });

    it('matches a value alone under any key', async () => {
      expect(names((await tagged('?filter[tagged][0][value]=prod')).body)).toEqual(['alpha', 'beta']);
    });

    it('refuses a malformed or unknown filter with a 400 naming it', async () => {
      for (const query of ['filter[tagged][x][key]=env', 'filter[name]=alpha', 'filter[permissions][delete]=true']) {
        const res = await tagged(`?${query}`);
        expect(res.status, query).toBe(400);
        expect(res.body.errors[0].source).toEqual({ parameter: query.split('=')[0] });
      }
    });

    it('combines several filters with AND', async () => {
      const res = await tagged(
        '?filter[tagged][0][key]=env&filter[tagged][0][value]=prod&filter[tagged][1][key]=team&filter[tagged][1][value]=web',
      );
      expect(names(res.body)).toEqual(['alpha']);
      expect(res.body.meta['status-counts']).toEqual({ total: 5, matching: 1 });
    });

    it('matches keys exactly (case-sensitive) and finds key-only bindings', async () => {
      expect(names((await tagged('?filter[tagged][0][key]=ENV')).body)).toEqual([]);
      expect(names((await tagged('?filter[tagged][0][key]=solo')).body)).toEqual(['delta']);
    });

    it('combines with q', async () => {
      expect(names((await tagged('?q=GAM&filter[tagged][0][key]=team')).body)).toEqual(['gamma']);
    });

    it('sideloads effective tag bindings with include=effective_tag_bindings', async () => {
      const res = await tagged('?include=effective_tag_bindings&filter[tagged][0][key]=team');
      expect(res.status).toBe(200);
      expect(names(res.body)).toEqual(['alpha', 'gamma']);
      const [alpha, gamma] = res.body.data;
      expect(alpha.relationships['effective-tag-bindings']).toEqual({
        data: [
          { id: expect.stringMatching(/^[0-9a-f]{16}$/), type: 'effective-tag-bindings' },
          { id: expect.stringMatching(/^[0-9a-f]{16}$/), type: 'effective-tag-bindings' },
        ],
        links: { related: `/api/v2/projects/${ids.alpha}/effective-tag-bindings` },
      });
      expect(gamma.relationships['effective-tag-bindings'].data).toHaveLength(2);
      expect(res.body.included).toHaveLength(4);
      const byId = new Map(res.body.included.map((b: any) => [b.id, b]));
      expect(alpha.relationships['effective-tag-bindings'].data.map((r: any) => byId.get(r.id))).toEqual([
        { id: expect.any(String), type: 'effective-tag-bindings', attributes: { key: 'env', value: 'prod' } },
        { id: expect.any(String), type: 'effective-tag-bindings', attributes: { key: 'team', value: 'web' } },
      ]);
      // Direct bindings carry no links member at all.
      for (const b of res.body.included) expect(b).not.toHaveProperty('links');
    });

    it('lists without included when include is absent', async () => {
      const res = await tagged('');
      expect(res.body.included).toBeUndefined();
      const alpha = res.body.data.find((p: any) => p.id === ids.alpha);
      expect(alpha.relationships['effective-tag-bindings']).toEqual({
        links: { related: `/api/v2/projects/${ids.alpha}/effective-tag-bindings` },
      });
    });

    it('rejects an unknown include with 400', async () => {
      const res = await tagged('?include=workspaces');
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatchObject({
        status: '400',
        title: 'bad request',
        detail: 'Invalid include parameter',
      });
    });
  });

  it('answers 404 for an unknown organization', async () => {
    const res = await api.get('/api/v2/organizations/nope/projects');
    expect(res.status).toBe(404);
    expect(res.body.errors).toEqual([{ status: '404', title: 'not found', detail: 'organization nope not found' }]);
  });
});
