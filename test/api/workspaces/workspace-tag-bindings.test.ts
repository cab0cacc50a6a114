import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { bindings, createWorkspace, expect422, insertProject, teamUser } from '../../helpers/workspaces.js';
import { goTfeTagBindings } from '../../fixtures/go-tfe.js';

const many = (n: number, prefix = 'k') =>
  Object.fromEntries(Array.from({ length: n }, (_, i) => [`${prefix}${i}`, `v${i}`]));

describe('key-value tag bindings of workspaces', () => {
  let api: TestApi;
  let ws: string;
  let project: string;
  const base = () => `/api/v2/workspaces/${ws}`;
  const own = async (id = ws) => {
    const res = await api.get(`/api/v2/workspaces/${id}/tag-bindings`);
    expect(res.status, res.text).toBe(200);
    return Object.fromEntries(res.body.data.map((b: any) => [b.attributes.key, b.attributes.value]));
  };

  beforeAll(async () => {
    api = await TestApi.create();
    await api.createOrg('acme');
    project = await insertProject(api, 'acme', 'Platform', { tags: { dept: 'r+d', env: 'staging' } });
    ws = (await createWorkspace(api, 'acme', { name: 'app' }, { project: { data: { type: 'projects', id: project } } }))
      .body.data.id;
  });
  afterAll(() => api.close());

  it('GET lists (not paginated) with links.target; empty at first', async () => {
    const res = await api.get(`${base()}/tag-bindings`);
    expect(res.body).toEqual({ data: [], links: { target: `/api/v2/workspaces/${ws}` } });
  });

  it('PATCH /tag-bindings adds or updates by key (go-tfe body, value omitted when empty) and answers 200 with the bindings it named', async () => {
    let res = await api.patch(`${base()}/tag-bindings`, goTfeTagBindings({ env: 'prod', owner: '' }));
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.map((b: any) => b.attributes)).toEqual([
      { key: 'env', value: 'prod', 'created-at': expect.any(String) },
      { key: 'owner', value: '', 'created-at': expect.any(String) },
    ]);
    expect(res.body.data[0]).toMatchObject({ type: 'tag-bindings' });
    expect(res.body.data[0].id).toMatch(/^tb-/);
    const envId = res.body.data[0].id;
    res = await api.patch(`${base()}/tag-bindings`, goTfeTagBindings({ env: 'qa', cost: '42' }));
    // The answer lists the request's keys as they now stand (HCP's documented answer); the rest stay.
    expect(res.body.data.map((b: any) => [b.attributes.key, b.attributes.value])).toEqual([
      ['env', 'qa'],
      ['cost', '42'],
    ]);
    // Updating a value keeps the binding's id.
    expect(res.body.data[0].id).toBe(envId);
    const all = (await api.get(`${base()}/tag-bindings`)).body.data;
    expect(all.map((b: any) => [b.attributes.key, b.attributes.value])).toEqual([
      ['env', 'qa'],
      ['owner', ''],
      ['cost', '42'],
    ]);
  });

  it('effective bindings: own ones without any links member, inherited ones with links.inherited-from; a key on both once, with the workspace value', async () => {
    const res = await api.get(`${base()}/effective-tag-bindings`);
    expect(res.status).toBe(200);
    const byKey = Object.fromEntries(res.body.data.map((b: any) => [b.attributes.key, b]));
    expect(Object.keys(byKey).sort()).toEqual(['cost', 'dept', 'env', 'owner']);
    expect(res.body.data.filter((b: any) => b.attributes.key === 'env')).toHaveLength(1);
    expect(byKey.env.attributes.value).toBe('qa');
    for (const key of ['env', 'owner', 'cost']) expect(byKey[key]).not.toHaveProperty('links');
    expect(byKey.dept.links).toEqual({ 'inherited-from': `/api/v2/projects/${project}` });
    expect(byKey.dept.attributes.value).toBe('r+d');
    for (const b of res.body.data) {
      expect(b.type).toBe('effective-tag-bindings');
      expect(b.id).toMatch(/^[0-9a-f]{16}$/);
    }
    // include=effective_tag_bindings on the workspace read carries the same objects.
    const read = await api.get(`${base()}?include=effective_tag_bindings`);
    expect(
      read.body.included
        .filter((i: any) => i.type === 'effective-tag-bindings')
        .map((i: any) => i.id)
        .sort(),
    ).toEqual(res.body.data.map((b: any) => b.id).sort());
  });

  it('relationship form: GET lists, POST adds (204), PATCH replaces (204)', async () => {
    let res = await api.post(`${base()}/relationships/tag-bindings`, goTfeTagBindings({ region: 'eu' }));
    expect(res.status).toBe(204);
    expect(res.text).toBe('');
    expect(await own()).toEqual({ env: 'qa', owner: '', cost: '42', region: 'eu' });
    res = await api.get(`${base()}/relationships/tag-bindings`);
    expect(res.body.data).toHaveLength(4);
    res = await api.patch(`${base()}/relationships/tag-bindings`, goTfeTagBindings({ env: 'prod', tier: '1' }));
    expect(res.status).toBe(204);
    expect(await own()).toEqual({ env: 'prod', tier: '1' });
    expect((await api.patch(`${base()}/relationships/tag-bindings`, { data: [] })).status).toBe(204);
    expect(await own()).toEqual({});
  });

  it('works by organization and workspace name too', async () => {
    expect(
      (await api.patch('/api/v2/organizations/acme/workspaces/app/tag-bindings', bindings({ env: 'prod' }))).status,
    ).toBe(200);
    expect((await api.get('/api/v2/organizations/acme/workspaces/app/effective-tag-bindings')).body.data).toHaveLength(
      2,
    );
  });

  it('limits: 10 direct bindings after merging are fine, 11 are a 422 with nothing changed (every write path)', async () => {
    expect((await api.patch(`${base()}/relationships/tag-bindings`, bindings(many(10)))).status).toBe(204);
    expect(Object.keys(await own())).toHaveLength(10);
    // Updating an existing key keeps 10.
    expect((await api.patch(`${base()}/tag-bindings`, bindings({ k0: 'changed' }))).status).toBe(200);
    const detail = 'Tag bindings cannot exceed 10 bindings per resource';
    await expect422(api, () => api.patch(`${base()}/tag-bindings`, bindings({ eleventh: 'x' })), '/data', detail);
    await expect422(
      api,
      () => api.post(`${base()}/relationships/tag-bindings`, bindings({ eleventh: 'x' })),
      '/data',
      detail,
    );
    await expect422(
      api,
      () => api.patch(`${base()}/relationships/tag-bindings`, bindings(many(11, 'n'))),
      '/data',
      detail,
    );
    // Inherited bindings (the project's 2) do not count towards the 10.
    const eff = await api.get(`${base()}/effective-tag-bindings`);
    expect(eff.body.data).toHaveLength(12);
  });

  it('key and value rules: lengths, character set, reserved prefixes, duplicates; 422 with nothing changed', async () => {
    await api.patch(`${base()}/relationships/tag-bindings`, bindings({ env: 'prod' }));
    const path = `${base()}/tag-bindings`;
    await expect422(
      api,
      () => api.patch(path, bindings({ ['k'.repeat(129)]: 'v' })),
      '/data/0/attributes/key',
      /too long/,
    );
    expect((await api.patch(path, bindings({ ['k'.repeat(128)]: 'v' }))).status).toBe(200);
    await expect422(
      api,
      () => api.patch(path, bindings({ key: 'v'.repeat(257) })),
      '/data/0/attributes/value',
      /too long/,
    );
    expect((await api.patch(path, bindings({ key: 'v'.repeat(256) }))).status).toBe(200);
    await expect422(api, () => api.patch(path, bindings({ 'bad key': 'v' })), '/data/0/attributes/key');
    await expect422(api, () => api.patch(path, bindings({ ok: 'bad/value' })), '/data/0/attributes/value');
    await expect422(api, () => api.patch(path, bindings({ 'hc:x': 'v' })), '/data/0/attributes/key', /reserved/);
    await expect422(
      api,
      () => api.post(`${base()}/relationships/tag-bindings`, bindings({ 'HCP:x': 'v' })),
      '/data/0/attributes/key',
      /reserved/,
    );
    await expect422(
      api,
      () =>
        api.patch(path, {
          data: [
            { type: 'tag-bindings', attributes: { key: 'a' } },
            { type: 'tag-bindings', attributes: { key: 'a', value: 'b' } },
          ],
        }),
      '/data/1/attributes/key',
      'Key has already been taken',
    );
    await expect422(api, () => api.patch(path, { data: [{ type: 'tags', attributes: { key: 'a' } }] }), '/data/0/type');
    await expect422(api, () => api.patch(path, { data: { type: 'tag-bindings' } }), '/data');
    expect(await own()).toEqual({ env: 'prod', ['k'.repeat(128)]: 'v', key: 'v'.repeat(256) });
  });

  it('moving the workspace to another project changes what it inherits at once', async () => {
    await api.patch(`${base()}/relationships/tag-bindings`, bindings({ env: 'prod' }));
    const other = await insertProject(api, 'acme', 'Data', { tags: { dept: 'data', cost: '7' } });
    const before = (await api.get(`${base()}/effective-tag-bindings`)).body.data;
    expect(before.find((b: any) => b.attributes.key === 'dept').attributes.value).toBe('r+d');
    const moved = await api.patch(base(), {
      data: {
        type: 'workspaces',
        attributes: {},
        relationships: { project: { data: { type: 'projects', id: other } } },
      },
    });
    expect(moved.status, moved.text).toBe(200);
    const after = (await api.get(`${base()}/effective-tag-bindings`)).body.data;
    expect(after.map((b: any) => [b.attributes.key, b.attributes.value, b.links?.['inherited-from'] ?? null])).toEqual([
      ['env', 'prod', null],
      ['dept', 'data', `/api/v2/projects/${other}`],
      ['cost', '7', `/api/v2/projects/${other}`],
    ]);
    // filter[tagged] follows the effective bindings as well.
    const list = await api.get(
      '/api/v2/organizations/acme/workspaces?filter[tagged][0][key]=dept&filter[tagged][0][value]=data',
    );
    expect(list.body.data.map((w: any) => w.id)).toEqual([ws]);
    const none = await api.get(
      '/api/v2/organizations/acme/workspaces?filter[tagged][0][key]=dept&filter[tagged][0][value]=r%2Bd',
    );
    expect(none.body.data).toEqual([]);
  });

  it('readers list but may not change bindings (404); outsiders 404', async () => {
    const reader = await teamUser(api, 'acme', 'reader', { read_workspaces: 1 });
    const outsider = (await api.userToken('outsider')).token;
    expect((await api.get(`${base()}/tag-bindings`, { token: reader })).status).toBe(200);
    expect((await api.get(`${base()}/effective-tag-bindings`, { token: reader })).status).toBe(200);
    expect((await api.patch(`${base()}/tag-bindings`, bindings({ a: 'b' }), { token: reader })).status).toBe(404);
    expect(
      (await api.post(`${base()}/relationships/tag-bindings`, bindings({ a: 'b' }), { token: reader })).status,
    ).toBe(404);
    expect(
      (await api.patch(`${base()}/relationships/tag-bindings`, bindings({ a: 'b' }), { token: reader })).status,
    ).toBe(404);
    expect((await api.get(`${base()}/tag-bindings`, { token: outsider })).status).toBe(404);
    expect((await api.get('/api/v2/workspaces/ws-AAAAAAAAAAAAAAAA/effective-tag-bindings')).status).toBe(404);
  });
});
