import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { createAgentPool, createWorkspace, teamUser, wsBody } from '../../helpers/workspaces.js';

const poolBody = (attributes: Record<string, unknown>, allowed?: string[]) => ({
  data: {
    type: 'agent-pools',
    attributes,
    ...(allowed
      ? { relationships: { 'allowed-workspaces': { data: allowed.map((id) => ({ type: 'workspaces', id })) } } }
      : {}),
  },
});
const ids = (rel: any) => rel.data.map((r: any) => r.id);

describe('agent pools: organization scope and allowed workspaces', () => {
  let api: TestApi;
  let one: string;
  let two: string;
  let foreign: string;
  beforeAll(async () => {
    api = await TestApi.create();
    await api.createOrg('acme');
    await api.createOrg('other');
    one = (await createWorkspace(api, 'acme', { name: 'one' })).body.data.id;
    two = (await createWorkspace(api, 'acme', { name: 'two' })).body.data.id;
    foreign = (await createWorkspace(api, 'other', { name: 'theirs' })).body.data.id;
  });
  afterAll(() => api.close());

  it('creates a pool scoped to some workspaces; read and list answer the same document', async () => {
    const res = await api.post(
      '/api/v2/organizations/acme/agent-pools',
      poolBody({ name: 'scoped', 'organization-scoped': false }, [one]),
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.attributes['organization-scoped']).toBe(false);
    expect(res.body.data.relationships['allowed-workspaces']).toEqual({ data: [{ id: one, type: 'workspaces' }] });
    expect((await api.get(`/api/v2/agent-pools/${res.body.data.id}`)).body.data).toEqual(res.body.data);
    const listed = (await api.get('/api/v2/organizations/acme/agent-pools?q=scoped')).body.data;
    expect(listed).toEqual([res.body.data]);
  });

  it('refuses allowed workspaces that are unknown or of another organization (422), storing nothing', async () => {
    const before = (await api.get('/api/v2/organizations/acme/agent-pools')).body.data;
    const res = await api.post(
      '/api/v2/organizations/acme/agent-pools',
      poolBody({ name: 'bad', 'organization-scoped': false }, [one, foreign, 'ws-nope']),
    );
    expect(res.status).toBe(422);
    expect(res.body.errors.map((e: any) => e.source.pointer)).toEqual([
      '/data/relationships/allowed-workspaces/data/1/id',
      '/data/relationships/allowed-workspaces/data/2/id',
    ]);
    expect((await api.get('/api/v2/organizations/acme/agent-pools')).body.data).toEqual(before);
    const wrongType = await api.post('/api/v2/organizations/acme/agent-pools', {
      data: {
        type: 'agent-pools',
        attributes: { name: 'bad' },
        relationships: { 'allowed-workspaces': { data: [{ type: 'projects', id: one }] } },
      },
    });
    expect(wrongType.status).toBe(422);
    expect(wrongType.body.errors[0].source.pointer).toBe('/data/relationships/allowed-workspaces/data/0/type');
  });

  it('updates name, scope and allowed workspaces; omitted members keep their values; [] clears', async () => {
    const id = await createAgentPool(api, 'acme', 'changing');
    const renamed = await api.patch(`/api/v2/agent-pools/${id}`, poolBody({ name: 'changed' }));
    expect(renamed.status).toBe(200);
    expect(renamed.body.data.attributes).toMatchObject({ name: 'changed', 'organization-scoped': true });
    const scoped = await api.patch(`/api/v2/agent-pools/${id}`, poolBody({ 'organization-scoped': false }, [one, two]));
    expect(scoped.body.data.attributes).toMatchObject({ name: 'changed', 'organization-scoped': false });
    expect(ids(scoped.body.data.relationships['allowed-workspaces'])).toEqual([one, two]);
    const kept = await api.patch(`/api/v2/agent-pools/${id}`, poolBody({ name: 'changed-again' }));
    expect(ids(kept.body.data.relationships['allowed-workspaces'])).toEqual([one, two]);
    // go-tfe's UpdateAllowedWorkspaces sends only the relationship.
    const cleared = await api.patch(`/api/v2/agent-pools/${id}`, {
      data: { type: 'agent-pools', relationships: { 'allowed-workspaces': { data: [] } } },
    });
    expect(cleared.status).toBe(200);
    expect(cleared.body.data.relationships['allowed-workspaces']).toEqual({ data: [] });
    expect(cleared.body.data.attributes.name).toBe('changed-again');
  });

  it('validates updates: blank or taken names, unknown workspaces; nothing changes', async () => {
    await createAgentPool(api, 'acme', 'taken');
    const id = await createAgentPool(api, 'acme', 'mine');
    const before = (await api.get(`/api/v2/agent-pools/${id}`)).body.data;
    for (const [body, pointer] of [
      [poolBody({ name: '' }), '/data/attributes/name'],
      [poolBody({ name: 'taken' }), '/data/attributes/name'],
      [poolBody({ 'organization-scoped': 'no' }), '/data/attributes/organization-scoped'],
      [poolBody({ name: 'fine' }, [foreign]), '/data/relationships/allowed-workspaces/data/0/id'],
    ] as const) {
      const res = await api.patch(`/api/v2/agent-pools/${id}`, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors[0].source.pointer).toBe(pointer);
    }
    expect((await api.get(`/api/v2/agent-pools/${id}`)).body.data).toEqual(before);
    expect((await api.patch('/api/v2/agent-pools/apool-unknown', poolBody({ name: 'x' }))).status).toBe(404);
  });

  it('filter[allowed_workspaces][name]: organization-scoped pools and those that allow the workspace', async () => {
    await api.createOrg('filters');
    const a = (await createWorkspace(api, 'filters', { name: 'alpha' })).body.data.id;
    const b = (await createWorkspace(api, 'filters', { name: 'beta' })).body.data.id;
    const everyone = await createAgentPool(api, 'filters', 'everyone');
    const forA = (
      await api.post(
        '/api/v2/organizations/filters/agent-pools',
        poolBody({ name: 'for-a', 'organization-scoped': false }, [a]),
      )
    ).body.data.id;
    const forB = (
      await api.post(
        '/api/v2/organizations/filters/agent-pools',
        poolBody({ name: 'for-b', 'organization-scoped': false }, [b]),
      )
    ).body.data.id;
    const list = async (name: string) => {
      const res = await api.get(`/api/v2/organizations/filters/agent-pools?filter[allowed_workspaces][name]=${name}`);
      return { ids: res.body.data.map((p: any) => p.id), total: res.body.meta.pagination['total-count'] };
    };
    expect(await list('alpha')).toEqual({ ids: [everyone, forA], total: 2 });
    expect(await list('BETA')).toEqual({ ids: [everyone, forB], total: 2 });
    expect(await list('nobody')).toEqual({ ids: [everyone], total: 1 });
  });

  it('a workspace may choose a pool only when it is organization-scoped or allows the workspace', async () => {
    const pool = (
      await api.post(
        '/api/v2/organizations/acme/agent-pools',
        poolBody({ name: 'picky', 'organization-scoped': false }, [one]),
      )
    ).body.data.id;
    const create = await api.post(
      '/api/v2/organizations/acme/workspaces',
      wsBody({ name: 'newcomer', 'execution-mode': 'agent', 'agent-pool-id': pool }),
    );
    expect(create.status).toBe(422);
    expect(create.body.errors[0]).toMatchObject({
      source: { pointer: '/data/attributes/agent-pool-id' },
      detail: expect.stringContaining('not organization-scoped'),
    });
    const refused = await api.patch(
      `/api/v2/workspaces/${two}`,
      wsBody({ 'execution-mode': 'agent', 'agent-pool-id': pool }),
    );
    expect(refused.status).toBe(422);
    const allowed = await api.patch(
      `/api/v2/workspaces/${one}`,
      wsBody({ 'execution-mode': 'agent', 'agent-pool-id': pool }),
    );
    expect(allowed.status, allowed.text).toBe(200);
    expect(allowed.body.data.relationships['agent-pool'].data.id).toBe(pool);
    await api.patch(`/api/v2/workspaces/${one}`, wsBody({ 'execution-mode': 'remote' }));
  });

  it('only owners and organization tokens change pools (404 for members, 404 for outsiders)', async () => {
    const id = await createAgentPool(api, 'acme', 'guarded-update');
    const member = await teamUser(api, 'acme', 'member', { manage_workspaces: 1 });
    const outsider = await teamUser(api, 'other', 'outsider', { is_owners: 1 });
    expect((await api.patch(`/api/v2/agent-pools/${id}`, poolBody({ name: 'x' }), { token: member })).status).toBe(404);
    expect((await api.patch(`/api/v2/agent-pools/${id}`, poolBody({ name: 'x' }), { token: outsider })).status).toBe(
      404,
    );
    expect((await api.get(`/api/v2/agent-pools/${id}`)).body.data.attributes.name).toBe('guarded-update');
  });

  it('an allowed workspace that is deleted leaves the list', async () => {
    const gone = (await createWorkspace(api, 'acme', { name: 'gone' })).body.data.id;
    const pool = (
      await api.post(
        '/api/v2/organizations/acme/agent-pools',
        poolBody({ name: 'loses-one', 'organization-scoped': false }, [gone, one]),
      )
    ).body.data.id;
    expect((await api.delete(`/api/v2/workspaces/${gone}`)).status).toBe(204);
    expect(ids((await api.get(`/api/v2/agent-pools/${pool}`)).body.data.relationships['allowed-workspaces'])).toEqual([
      one,
    ]);
  });
});
