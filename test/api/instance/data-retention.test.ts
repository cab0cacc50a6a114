import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { createWorkspace, teamUser } from '../../helpers/workspaces.js';
import { goTfeDeleteOlder, goTfeDontDelete } from '../../fixtures/go-tfe.js';

describe('data retention policies (self-hosted edition)', () => {
  let api: TestApi;
  let ws: string;
  const wsPath = () => `/api/v2/workspaces/${ws}/relationships/data-retention-policy`;
  const orgPath = '/api/v2/organizations/acme/relationships/data-retention-policy';
  const policies = () => api.store.db.selectFrom('data_retention_policies').selectAll().orderBy('seq').execute();

  beforeAll(async () => {
    api = await TestApi.create();
    await api.createOrg('acme');
    ws = (await createWorkspace(api, 'acme', { name: 'app' })).body.data.id;
  });
  afterAll(() => api.close());

  it('without any policy: GET answers the implicit site-wide default (keep everything); both documents carry data-retention-policy: {data: null}', async () => {
    for (const path of [wsPath(), orgPath]) {
      const res = await api.get(path);
      expect(res.status, res.text).toBe(200);
      expect(res.body.data).toEqual({
        id: 'drp-siteDefault00000',
        type: 'data-retention-policy-dont-deletes',
        attributes: {},
        relationships: { target: { data: null } },
      });
    }
    expect((await api.get(`/api/v2/workspaces/${ws}`)).body.data.relationships['data-retention-policy']).toEqual({
      data: null,
    });
    expect((await api.get('/api/v2/organizations/acme')).body.data.relationships['data-retention-policy']).toEqual({
      data: null,
    });
  });

  it('POST on the organization (go-tfe delete-older body) returns the policy document', async () => {
    const res = await api.post(orgPath, goTfeDeleteOlder(60));
    expect(res.status, res.text).toBe(200);
    expect(res.body.data).toMatchObject({
      type: 'data-retention-policy-delete-olders',
      attributes: { 'delete-older-than-n-days': 60 },
      relationships: { target: { data: { id: 'acme', type: 'organizations' } } },
    });
    expect(res.body.data.id).toMatch(/^drp-[A-Za-z0-9]{16}$/);
    const org = (await api.get('/api/v2/organizations/acme')).body.data;
    expect(org.relationships['data-retention-policy'].data).toEqual({
      id: res.body.data.id,
      type: 'data-retention-policy-delete-olders',
    });
    expect((await api.get(orgPath)).body.data).toEqual(res.body.data);
  });

  it('a workspace without a policy of its own reads the organization default; its relationship stays null', async () => {
    const res = await api.get(wsPath());
    expect(res.status).toBe(200);
    expect(res.body.data.relationships.target.data).toEqual({ id: 'acme', type: 'organizations' });
    expect((await api.get(`/api/v2/workspaces/${ws}`)).body.data.relationships['data-retention-policy']).toEqual({
      data: null,
    });
  });

  it('POST on the workspace creates its own policy; POST again replaces it and may change the type (same id)', async () => {
    let res = await api.post(wsPath(), goTfeDeleteOlder(33));
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      type: 'data-retention-policy-delete-olders',
      attributes: { 'delete-older-than-n-days': 33 },
      relationships: { target: { data: { id: ws, type: 'workspaces' } } },
    });
    const id = res.body.data.id;
    let doc = (await api.get(`/api/v2/workspaces/${ws}`)).body.data;
    expect(doc.relationships['data-retention-policy'].data).toEqual({
      id,
      type: 'data-retention-policy-delete-olders',
    });
    res = await api.post(wsPath(), goTfeDontDelete);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({
      id,
      type: 'data-retention-policy-dont-deletes',
      attributes: {},
      relationships: { target: { data: { id: ws, type: 'workspaces' } } },
    });
    doc = (await api.get(`/api/v2/workspaces/${ws}`)).body.data;
    expect(doc.relationships['data-retention-policy'].data).toEqual({ id, type: 'data-retention-policy-dont-deletes' });
    expect((await api.get(wsPath())).body.data.type).toBe('data-retention-policy-dont-deletes');
  });

  it('PATCH is accepted as POST, including the legacy data-retention-policies type, always with the body', async () => {
    let res = await api.patch(wsPath(), goTfeDeleteOlder(5));
    expect(res.status).toBe(200);
    expect(res.body.data.attributes['delete-older-than-n-days']).toBe(5);
    res = await api.patch(wsPath(), {
      data: { type: 'data-retention-policies', attributes: { 'delete-older-than-n-days': 7 } },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      type: 'data-retention-policies',
      attributes: { 'delete-older-than-n-days': 7 },
    });
    res = await api.patch(
      '/api/v2/organizations/acme/workspaces/app/relationships/data-retention-policy',
      goTfeDeleteOlder(9),
    );
    expect(res.body.data.attributes['delete-older-than-n-days']).toBe(9);
    expect((await api.patch(orgPath, goTfeDeleteOlder(61))).body.data.attributes['delete-older-than-n-days']).toBe(61);
  });

  it('422 for days below 1, non-integers, missing days and unknown types; nothing changed', async () => {
    const before = await policies();
    const cases: [unknown, string][] = [
      [goTfeDeleteOlder(0), '/data/attributes/delete-older-than-n-days'],
      [goTfeDeleteOlder(-3), '/data/attributes/delete-older-than-n-days'],
      [goTfeDeleteOlder(1.5), '/data/attributes/delete-older-than-n-days'],
      [
        { data: { type: 'data-retention-policy-delete-olders', attributes: { 'delete-older-than-n-days': '30' } } },
        '/data/attributes/delete-older-than-n-days',
      ],
      [{ data: { type: 'data-retention-policy-delete-olders' } }, '/data/attributes/delete-older-than-n-days'],
      [{ data: { type: 'workspaces' } }, '/data/type'],
      [{ data: null }, '/data'],
      [{}, '/data'],
    ];
    for (const path of [wsPath(), orgPath]) {
      for (const [body, pointer] of cases) {
        const res = await api.post(path, body);
        expect(res.status, `${JSON.stringify(body)}: ${res.text}`).toBe(422);
        expect(res.body.errors[0].source.pointer).toBe(pointer);
      }
    }
    expect(await policies()).toEqual(before);
    expect((await api.post(wsPath(), goTfeDeleteOlder(1))).status).toBe(200);
  });

  it("DELETE removes the workspace's own policy (204); the default applies again; the relationship is null", async () => {
    expect((await api.delete(wsPath())).status).toBe(204);
    expect((await api.get(`/api/v2/workspaces/${ws}`)).body.data.relationships['data-retention-policy']).toEqual({
      data: null,
    });
    expect((await api.get(wsPath())).body.data.relationships.target.data.type).toBe('organizations');
    expect((await api.delete(orgPath)).status).toBe(204);
    // Nothing of their own: both answer the site-wide default.
    expect((await api.get(orgPath)).body.data.relationships.target.data).toBeNull();
    expect((await api.get(wsPath())).body.data.relationships.target.data).toBeNull();
    expect((await api.get('/api/v2/organizations/acme')).body.data.relationships['data-retention-policy']).toEqual({
      data: null,
    });
    // Deleting again is still a 204.
    expect((await api.delete(wsPath())).status).toBe(204);
  });

  it('who may: workspace admins set workspace policies, owners the default; readers read (404 on writes); outsiders 404', async () => {
    const reader = await teamUser(api, 'acme', 'reader', { read_workspaces: 1 });
    const admin = await teamUser(api, 'acme', 'wsadmin', { manage_workspaces: 1 });
    const outsider = (await api.userToken('outsider')).token;
    await api.post(orgPath, goTfeDeleteOlder(30));
    expect((await api.get(wsPath(), { token: reader })).status).toBe(200);
    expect((await api.get(orgPath, { token: reader })).status).toBe(200);
    expect((await api.post(wsPath(), goTfeDeleteOlder(3), { token: reader })).status).toBe(404);
    expect((await api.delete(wsPath(), { token: reader })).status).toBe(404);
    expect((await api.post(wsPath(), goTfeDeleteOlder(3), { token: admin })).status).toBe(200);
    expect((await api.post(orgPath, goTfeDeleteOlder(3), { token: admin })).status).toBe(404);
    expect((await api.delete(orgPath, { token: admin })).status).toBe(404);
    expect((await api.get(wsPath(), { token: outsider })).status).toBe(404);
    expect((await api.get(orgPath, { token: outsider })).status).toBe(404);
  });

  it('the organization token may set and delete the default', async () => {
    const res = await api.post('/api/v2/organizations/acme/authentication-token', {
      data: { type: 'authentication-tokens', attributes: {} },
    });
    expect(res.status, res.text).toBe(201);
    const token = res.body.data.attributes.token;
    expect((await api.post(orgPath, goTfeDontDelete, { token })).status).toBe(200);
    expect(
      (await api.get('/api/v2/organizations/acme', { token })).body.data.relationships['data-retention-policy'].data
        .type,
    ).toBe('data-retention-policy-dont-deletes');
    expect((await api.delete(orgPath, { token })).status).toBe(204);
  });

  it('deleting the workspace removes its policy', async () => {
    expect((await policies()).some((p) => p.workspace_id === ws)).toBe(true);
    expect((await api.delete(`/api/v2/workspaces/${ws}`)).status).toBe(204);
    expect((await policies()).some((p) => p.workspace_id === ws)).toBe(false);
  });
});

describe('data retention in the hosted edition', () => {
  let api: TestApi;
  let ws: string;

  beforeAll(async () => {
    api = await TestApi.create({ settings: { edition: 'hosted' } });
    await api.createOrg('acme');
    ws = (await createWorkspace(api, 'acme', { name: 'app' })).body.data.id;
  });
  afterAll(() => api.close());

  it('every endpoint answers 404 and nothing is stored', async () => {
    for (const path of [
      `/api/v2/workspaces/${ws}/relationships/data-retention-policy`,
      '/api/v2/organizations/acme/relationships/data-retention-policy',
    ]) {
      expect((await api.get(path)).status).toBe(404);
      expect((await api.post(path, goTfeDeleteOlder(3))).status).toBe(404);
      expect((await api.patch(path, goTfeDeleteOlder(3))).status).toBe(404);
      expect((await api.post(path, { data: { type: 'nonsense' } })).status).toBe(404);
      expect((await api.delete(path)).status).toBe(404);
    }
    expect((await api.post('/api/v2/admin/maintenance/prune')).status).toBe(404);
    expect((await api.get('/api/v2/admin/data-retention-policy-settings')).status).toBe(404);
    expect((await api.post('/api/v2/admin/data-retention-policy-settings', goTfeDeleteOlder(3))).status).toBe(404);
    expect(await api.store.db.selectFrom('data_retention_policies').selectAll().execute()).toEqual([]);
  });

  it('neither the workspace nor the organization document has the relationship', async () => {
    expect((await api.get(`/api/v2/workspaces/${ws}`)).body.data.relationships).not.toHaveProperty(
      'data-retention-policy',
    );
    expect((await api.get('/api/v2/organizations/acme')).body.data.relationships).not.toHaveProperty(
      'data-retention-policy',
    );
  });
});

describe('the site-wide default data retention policy (self-hosted edition)', () => {
  let api: TestApi;
  let ws: string;
  const site = '/api/v2/admin/data-retention-policy-settings';
  const wsPath = () => `/api/v2/workspaces/${ws}/relationships/data-retention-policy`;
  const orgPath = '/api/v2/organizations/acme/relationships/data-retention-policy';

  beforeAll(async () => {
    api = await TestApi.create();
    await api.createOrg('acme');
    ws = (await createWorkspace(api, 'acme', { name: 'app' })).body.data.id;
  });
  afterAll(() => api.close());

  it('site administrators set it; organizations and workspaces without their own inherit it', async () => {
    const set = await api.post(site, goTfeDeleteOlder(90));
    expect(set.status, set.text).toBe(200);
    expect(set.body.data).toMatchObject({
      type: 'data-retention-policy-delete-olders',
      attributes: { 'delete-older-than-n-days': 90 },
      relationships: { target: { data: null } },
    });
    expect(set.body.data.id).toMatch(/^drp-[A-Za-z0-9]{16}$/);
    expect((await api.get(site)).body.data).toEqual(set.body.data);
    expect((await api.get(orgPath)).body.data).toEqual(set.body.data);
    expect((await api.get(wsPath())).body.data).toEqual(set.body.data);
    // Changing its kind keeps its id; the organization's own policy wins over it.
    const changed = await api.patch(site, goTfeDontDelete);
    expect(changed.body.data).toMatchObject({ id: set.body.data.id, type: 'data-retention-policy-dont-deletes' });
    expect((await api.post(orgPath, goTfeDeleteOlder(7))).status).toBe(200);
    expect((await api.get(wsPath())).body.data.attributes).toEqual({ 'delete-older-than-n-days': 7 });
    expect((await api.delete(orgPath)).status).toBe(204);
    expect((await api.get(wsPath())).body.data.id).toBe(set.body.data.id);
    // DELETE goes back to the implicit default.
    expect((await api.delete(site)).status).toBe(204);
    expect((await api.get(wsPath())).body.data.id).toBe('drp-siteDefault00000');
  });

  it('is for site administrators only: others get 404 and change nothing', async () => {
    const owner = await api.userToken('olga');
    expect((await api.createOrg('olgas', owner.token)).status).toBe(201);
    expect((await api.get(site, { token: owner.token })).status).toBe(404);
    expect((await api.post(site, goTfeDeleteOlder(1), { token: owner.token })).status).toBe(404);
    expect((await api.delete(site, { token: owner.token })).status).toBe(404);
    expect((await api.get(site)).body.data.id).toBe('drp-siteDefault00000');
  });

  it('rejects a malformed policy with a 422 and keeps the one in force', async () => {
    expect((await api.post(site, { data: { type: 'nonsense' } })).status).toBe(422);
    expect((await api.post(site, goTfeDeleteOlder(0))).status).toBe(422);
    expect((await api.get(site)).body.data.id).toBe('drp-siteDefault00000');
  });
});
