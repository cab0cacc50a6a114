import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { bindings, createWorkspace, insertProject, teamUser, wsBody } from '../../helpers/workspaces.js';

const keyBody = (attributes: Record<string, unknown>) => ({ data: { type: 'reserved-tag-keys', attributes } });

describe('reserved tag keys', () => {
  let api: TestApi;
  const list = async (org = 'acme') => (await api.get(`/api/v2/organizations/${org}/reserved-tag-keys`)).body;
  beforeAll(async () => {
    api = await TestApi.create();
    await api.createOrg('acme');
    await api.createOrg('other');
  });
  afterAll(() => api.close());

  it('creates, lists, updates (both paths) and deletes a key', async () => {
    const res = await api.post('/api/v2/organizations/acme/reserved-tag-keys', keyBody({ key: 'env' }));
    expect(res.status, res.text).toBe(201);
    const key = res.body.data;
    expect(key).toMatchObject({
      id: expect.stringMatching(/^rtk-[A-Za-z0-9]{16}$/),
      type: 'reserved-tag-keys',
      attributes: { key: 'env', 'disable-overrides': false },
      relationships: { organization: { data: { id: 'acme', type: 'organizations' } } },
      links: { self: `/api/v2/reserved-tag-keys/${key.id}` },
    });
    // HCP's documented kebab-case timestamps, and the snake_case ones go-tfe reads.
    expect(key.attributes['created-at']).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(key.attributes.created_at).toBe(key.attributes['created-at']);
    expect(key.attributes.updated_at).toBe(key.attributes['updated-at']);
    expect((await list()).data).toEqual([key]);
    expect((await list()).meta.pagination['total-count']).toBe(1);

    const updated = await api.patch(
      `/api/v2/reserved-tag-keys/${key.id}`,
      keyBody({ key: 'environment', 'disable-overrides': true }),
    );
    expect(updated.status).toBe(200);
    expect(updated.body.data.attributes).toMatchObject({ key: 'environment', 'disable-overrides': true });
    const viaDocsPath = await api.patch(`/api/v2/reserved-tags/${key.id}`, keyBody({ 'disable-overrides': false }));
    expect(viaDocsPath.body.data.attributes).toMatchObject({ key: 'environment', 'disable-overrides': false });

    expect((await api.delete(`/api/v2/reserved-tag-keys/${key.id}`)).status).toBe(204);
    expect((await list()).data).toEqual([]);
    expect((await api.delete(`/api/v2/reserved-tag-keys/${key.id}`)).status).toBe(404);
    expect((await api.delete(`/api/v2/reserved-tags/${key.id}`)).status).toBe(404);
  });

  it('validates keys as go-tfe expects the errors worded; nothing is stored', async () => {
    const first = (await api.post('/api/v2/organizations/acme/reserved-tag-keys', keyBody({ key: 'team' }))).body.data;
    const cases: [Record<string, unknown>, string][] = [
      [{ key: 'team' }, 'Key has already been taken'],
      [{ key: '! / nope' }, 'Key is invalid'],
      [{ key: 'hc:thing' }, 'Key is invalid'],
      [{ key: 'x'.repeat(129) }, 'Key is too long'],
      [{ 'disable-overrides': true }, "Key can't be blank"],
      [{ key: 'ok', 'disable-overrides': 'yes' }, 'Disable-overrides must be a boolean'],
    ];
    for (const [attributes, detail] of cases) {
      const res = await api.post('/api/v2/organizations/acme/reserved-tag-keys', keyBody(attributes));
      expect(res.status, JSON.stringify(attributes)).toBe(422);
      expect(res.body.errors[0]).toMatchObject({ title: 'invalid attribute' });
      expect(res.body.errors[0].detail).toContain(detail);
    }
    const second = (await api.post('/api/v2/organizations/acme/reserved-tag-keys', keyBody({ key: 'owner' }))).body
      .data;
    const taken = await api.patch(`/api/v2/reserved-tag-keys/${second.id}`, keyBody({ key: 'team' }));
    expect(taken.status).toBe(422);
    expect(taken.body.errors[0].detail).toBe('Key has already been taken');
    const invalid = await api.patch(`/api/v2/reserved-tag-keys/${second.id}`, keyBody({ key: '! / nope' }));
    expect(invalid.status).toBe(422);
    expect((await list()).data.map((k: any) => k.attributes.key)).toEqual(['team', 'owner']);
    // The same key in another organization is fine.
    expect((await api.post('/api/v2/organizations/other/reserved-tag-keys', keyBody({ key: 'team' }))).status).toBe(
      201,
    );
    await api.delete(`/api/v2/reserved-tag-keys/${first.id}`);
    await api.delete(`/api/v2/reserved-tag-keys/${second.id}`);
  });

  it('members read them; only owners manage them (404); outsiders and unknown organizations get 404', async () => {
    const key = (await api.post('/api/v2/organizations/acme/reserved-tag-keys', keyBody({ key: 'cost-center' }))).body
      .data;
    const member = await teamUser(api, 'acme', 'member', { manage_workspaces: 1 });
    const outsider = await teamUser(api, 'other', 'outsider', { is_owners: 1 });
    expect((await api.get('/api/v2/organizations/acme/reserved-tag-keys', { token: member })).body.data).toHaveLength(
      1,
    );
    expect(
      (await api.post('/api/v2/organizations/acme/reserved-tag-keys', keyBody({ key: 'x' }), { token: member })).status,
    ).toBe(404);
    expect(
      (await api.patch(`/api/v2/reserved-tag-keys/${key.id}`, keyBody({ key: 'y' }), { token: member })).status,
    ).toBe(404);
    expect((await api.delete(`/api/v2/reserved-tag-keys/${key.id}`, { token: member })).status).toBe(404);
    expect((await api.get('/api/v2/organizations/acme/reserved-tag-keys', { token: outsider })).status).toBe(404);
    expect((await api.delete(`/api/v2/reserved-tag-keys/${key.id}`, { token: outsider })).status).toBe(404);
    expect((await api.get('/api/v2/organizations/nowhere/reserved-tag-keys')).status).toBe(404);
    expect((await api.post('/api/v2/organizations/nowhere/reserved-tag-keys', keyBody({ key: 'x' }))).status).toBe(404);
    await api.delete(`/api/v2/reserved-tag-keys/${key.id}`);
  });

  it('disable-overrides: a workspace may not change the value its project gives the key', async () => {
    await api.createOrg('tagged');
    const project = await insertProject(api, 'tagged', 'Tagged', { tags: { env: 'prod', team: 'web' } });
    const rel = { project: { data: { type: 'projects', id: project } } };
    const ws = (await createWorkspace(api, 'tagged', { name: 'in-project' }, rel)).body.data;
    await api.post(
      '/api/v2/organizations/tagged/reserved-tag-keys',
      keyBody({ key: 'env', 'disable-overrides': true }),
    );
    await api.post('/api/v2/organizations/tagged/reserved-tag-keys', keyBody({ key: 'team' }));

    const refused = await api.patch(`/api/v2/workspaces/${ws.id}/tag-bindings`, bindings({ owner: 'me', env: 'dev' }));
    expect(refused.status).toBe(422);
    expect(refused.body.errors).toEqual([
      expect.objectContaining({
        source: { pointer: '/data/1/attributes/key' },
        detail: expect.stringContaining('env'),
      }),
    ]);
    expect((await api.get(`/api/v2/workspaces/${ws.id}/tag-bindings`)).body.data).toEqual([]);
    // Repeating the inherited value is no override; a key without the flag may be overridden.
    const fine = await api.patch(`/api/v2/workspaces/${ws.id}/tag-bindings`, bindings({ env: 'prod', team: 'api' }));
    expect(fine.status, fine.text).toBe(200);
    // The same rule on create and on update through relationships.tag-bindings.
    const create = await api.post(
      '/api/v2/organizations/tagged/workspaces',
      wsBody({ name: 'new-one' }, { ...rel, 'tag-bindings': bindings({ env: 'staging' }) }),
    );
    expect(create.status).toBe(422);
    expect(create.body.errors[0].source.pointer).toBe('/data/relationships/tag-bindings/data/0/attributes/key');
    const update = await api.patch(
      `/api/v2/workspaces/${ws.id}`,
      wsBody({}, { 'tag-bindings': bindings({ env: 'staging' }) }),
    );
    expect(update.status).toBe(422);
    // Outside the project (no inherited env), the key is free.
    const elsewhere = await createWorkspace(
      api,
      'tagged',
      { name: 'elsewhere' },
      { 'tag-bindings': bindings({ env: 'staging' }) },
    );
    expect(elsewhere.status).toBe(201);
  });
});

describe('organization tags: delete, and add a tag to workspaces', () => {
  let api: TestApi;
  let a: string;
  let b: string;
  const tags = async () => (await api.get('/api/v2/organizations/acme/tags')).body.data;
  const tagNames = async (ws: string) =>
    (await api.get(`/api/v2/workspaces/${ws}/relationships/tags`)).body.data.map((t: any) => t.attributes.name);
  beforeAll(async () => {
    api = await TestApi.create();
    await api.createOrg('acme');
    await api.createOrg('other');
    a = (await createWorkspace(api, 'acme', { name: 'a' })).body.data.id;
    b = (await createWorkspace(api, 'acme', { name: 'b' })).body.data.id;
    await api.post(`/api/v2/workspaces/${a}/relationships/tags`, {
      data: ['one', 'two', 'three'].map((name) => ({ type: 'tags', attributes: { name } })),
    });
  });
  afterAll(() => api.close());

  it('adds a tag to several workspaces (idempotent for those that carry it)', async () => {
    const one = (await tags()).find((t: any) => t.attributes.name === 'one');
    const res = await api.post(`/api/v2/tags/${one.id}/relationships/workspaces`, {
      data: [
        { type: 'workspaces', id: a },
        { type: 'workspaces', id: b },
      ],
    });
    expect(res.status, res.text).toBe(204);
    expect(await tagNames(b)).toEqual(['one']);
    expect(await tagNames(a)).toEqual(['one', 'two', 'three']);
    expect((await tags()).find((t: any) => t.id === one.id).attributes['instance-count']).toBe(2);
  });

  it('refuses unknown tags (404), workspaces of another organization (422) and callers who may not (404)', async () => {
    const one = (await tags())[0];
    const theirs = (await createWorkspace(api, 'other', { name: 'theirs' })).body.data.id;
    expect(
      (await api.post('/api/v2/tags/tag-unknown/relationships/workspaces', { data: [{ type: 'workspaces', id: a }] }))
        .status,
    ).toBe(404);
    const foreign = await api.post(`/api/v2/tags/${one.id}/relationships/workspaces`, {
      data: [
        { type: 'workspaces', id: a },
        { type: 'workspaces', id: theirs },
      ],
    });
    expect(foreign.status).toBe(422);
    expect(foreign.body.errors[0].source.pointer).toBe('/data/1/id');
    const reader = await teamUser(api, 'acme', 'reader', { read_workspaces: 1 });
    expect(
      (
        await api.post(
          `/api/v2/tags/${one.id}/relationships/workspaces`,
          { data: [{ type: 'workspaces', id: b }] },
          { token: reader },
        )
      ).status,
    ).toBe(404);
    const outsider = await teamUser(api, 'other', 'outsider', { is_owners: 1 });
    expect(
      (
        await api.post(
          `/api/v2/tags/${one.id}/relationships/workspaces`,
          { data: [{ type: 'workspaces', id: theirs }] },
          { token: outsider },
        )
      ).status,
    ).toBe(404);
    const empty = await api.post(`/api/v2/tags/${one.id}/relationships/workspaces`, { data: [{ type: 'tags' }] });
    expect(empty.status).toBe(422);
  });

  it('deletes tags of the organization from every workspace', async () => {
    const all = await tags();
    const [one, two] = ['one', 'two'].map((n) => all.find((t: any) => t.attributes.name === n));
    const reader = await teamUser(api, 'acme', 'reader2', { read_workspaces: 1 });
    const body = { data: [{ type: 'tags', id: one.id }] };
    expect((await api.delete('/api/v2/organizations/acme/tags', { body, token: reader })).status).toBe(404);
    const unknown = await api.delete('/api/v2/organizations/acme/tags', {
      body: {
        data: [
          { type: 'tags', id: one.id },
          { type: 'tags', id: 'tag-unknown' },
        ],
      },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors[0].source.pointer).toBe('/data/1/id');
    expect(await tagNames(b)).toEqual(['one']);
    const res = await api.delete('/api/v2/organizations/acme/tags', {
      body: {
        data: [
          { type: 'tags', id: one.id },
          { type: 'tags', id: two.id },
        ],
      },
    });
    expect(res.status).toBe(204);
    expect(await tagNames(a)).toEqual(['three']);
    expect(await tagNames(b)).toEqual([]);
    expect((await tags()).map((t: any) => t.attributes.name)).toEqual(['three']);
    expect(
      (await api.delete('/api/v2/organizations/other/tags', { body: { data: [{ type: 'tags', id: one.id }] } })).status,
    ).toBe(422);
  });
});
