import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';

const names = (body: any): string[] => body.data.map((o: any) => o.id);
const link = (number: number) =>
  expect.stringMatching(new RegExp(`^http.*/api/v2/organizations\\?page%5Bnumber%5D=${number}&page%5Bsize%5D=20$`));

describe('pagination of GET /api/v2/organizations', () => {
  let api: TestApi;
  const all = Array.from({ length: 45 }, (_, i) => `org-${String(i).padStart(2, '0')}`);

  beforeAll(async () => {
    api = await TestApi.create();
    for (const name of all) expect((await api.createOrg(name)).status).toBe(201);
  });
  afterAll(() => api.close());

  it('returns the first page with meta and absolute links', async () => {
    const res = await api.get('/api/v2/organizations?page[size]=20');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(20);
    expect(res.body.meta.pagination).toEqual({
      'current-page': 1,
      'page-size': 20,
      'prev-page': null,
      'next-page': 2,
      'total-pages': 3,
      'total-count': 45,
    });
    expect(res.body.links).toEqual({ self: link(1), first: link(1), prev: null, next: link(2), last: link(3) });
  });

  it('returns the middle page with prev and next', async () => {
    const res = await api.get('/api/v2/organizations?page[number]=2&page[size]=20');
    expect(res.body.meta.pagination).toMatchObject({ 'current-page': 2, 'prev-page': 1, 'next-page': 3 });
    expect(res.body.links).toEqual({ self: link(2), first: link(1), prev: link(1), next: link(3), last: link(3) });
  });

  it('returns the last page with the remaining items and no next', async () => {
    const res = await api.get('/api/v2/organizations?page[number]=3&page[size]=20');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(5);
    expect(res.body.meta.pagination).toEqual({
      'current-page': 3,
      'page-size': 20,
      'prev-page': 2,
      'next-page': null,
      'total-pages': 3,
      'total-count': 45,
    });
    expect(res.body.links).toMatchObject({ self: link(3), prev: link(2), next: null, last: link(3) });
  });

  it('uses a page size of 20 by default', async () => {
    const res = await api.get('/api/v2/organizations');
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(20);
    expect(res.body.meta.pagination).toMatchObject({
      'current-page': 1,
      'page-size': 20,
      'total-pages': 3,
      'total-count': 45,
    });
  });

  it('yields every organization exactly once across pages 1..3', async () => {
    const seen: string[] = [];
    for (const n of [1, 2, 3])
      seen.push(...names((await api.get(`/api/v2/organizations?page[number]=${n}&page[size]=20`)).body));
    expect(seen).toHaveLength(45);
    expect([...seen].sort()).toEqual(all);
  });

  it('rejects page[size]=101 with the HCP Terraform message', async () => {
    const res = await api.get('/api/v2/organizations?page[size]=101');
    expect(res.status).toBe(422);
    expect(res.body.errors[0]).toMatchObject({
      status: '422',
      title: 'invalid attribute',
      detail: 'page[size] must be between 1 and 100',
    });
  });

  it.each(['page[size]=0', 'page[size]=abc', 'page[number]=0'])('rejects %s with 422', async (query) => {
    const res = await api.get(`/api/v2/organizations?${query}`);
    expect(res.status).toBe(422);
    expect(res.body.errors[0].status).toBe('422');
  });

  it('answers a page beyond the last with empty data and correct meta', async () => {
    const res = await api.get('/api/v2/organizations?page[number]=99&page[size]=20');
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual([]);
    expect(res.body.meta.pagination).toMatchObject({
      'current-page': 99,
      'next-page': null,
      'total-pages': 3,
      'total-count': 45,
    });
    expect(res.body.links.next).toBeNull();
  });

  it('filters by substring with q', async () => {
    const res = await api.get('/api/v2/organizations?q=org-1');
    expect(res.status).toBe(200);
    expect(names(res.body).sort()).toEqual([
      'org-10',
      'org-11',
      'org-12',
      'org-13',
      'org-14',
      'org-15',
      'org-16',
      'org-17',
      'org-18',
      'org-19',
    ]);
    expect(res.body.meta.pagination['total-count']).toBe(10);
    expect(names((await api.get('/api/v2/organizations?q=nothing-matches')).body)).toEqual([]);
  });
});

describe('q with LIKE wildcard characters', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.create();
    for (const name of ['my_org', 'myxorg', 'dev-team']) expect((await api.createOrg(name)).status).toBe(201);
  });
  afterAll(() => api.close());

  it('matches "_" literally', async () => {
    const res = await api.get('/api/v2/organizations?q=my_org');
    expect(res.status).toBe(200);
    expect(names(res.body)).toEqual(['my_org']);
  });
});
