import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { createAgentPool, createWorkspace, teamUser } from '../../helpers/workspaces.js';

describe('agent pools and OAuth tokens', () => {
  let api: TestApi;
  const poolBody = (attributes: Record<string, unknown>) => ({ data: { type: 'agent-pools', attributes } });

  beforeAll(async () => {
    api = await TestApi.create();
    await api.createOrg('acme');
    await api.createOrg('other');
  });
  afterAll(() => api.close());

  it('creates, reads, lists and deletes an agent pool', async () => {
    const res = await api.post('/api/v2/organizations/acme/agent-pools', poolBody({ name: 'builders' }));
    expect(res.status).toBe(201);
    expect(res.headers.get('content-type')).toBe('application/vnd.api+json');
    const pool = res.body.data;
    expect(pool).toMatchObject({
      id: expect.stringMatching(/^apool-[A-Za-z0-9]{16}$/),
      type: 'agent-pools',
      attributes: { name: 'builders', 'organization-scoped': true, 'agent-count': 0 },
      relationships: { organization: { data: { id: 'acme', type: 'organizations' } }, workspaces: { data: [] } },
      links: { self: `/api/v2/agent-pools/${pool.id}` },
    });
    expect((await api.get(`/api/v2/agent-pools/${pool.id}`)).body.data).toEqual(pool);
    const list = await api.get('/api/v2/organizations/acme/agent-pools');
    expect(list.body.data).toEqual([pool]);
    expect(list.body.meta.pagination['total-count']).toBe(1);
    expect((await api.get('/api/v2/organizations/other/agent-pools')).body.data).toEqual([]);
    expect((await api.delete(`/api/v2/agent-pools/${pool.id}`)).status).toBe(204);
    expect((await api.get(`/api/v2/agent-pools/${pool.id}`)).status).toBe(404);
  });

  it('validates names: required, unique in the organization', async () => {
    await createAgentPool(api, 'acme', 'unique');
    const blank = await api.post('/api/v2/organizations/acme/agent-pools', poolBody({}));
    expect(blank.status).toBe(422);
    expect(blank.body.errors[0]).toMatchObject({
      title: 'invalid attribute',
      detail: "Name can't be blank",
      source: { pointer: '/data/attributes/name' },
    });
    const dup = await api.post('/api/v2/organizations/acme/agent-pools', poolBody({ name: 'unique' }));
    expect(dup.status).toBe(422);
    expect(dup.body.errors[0].detail).toBe('Name has already been taken');
    expect((await api.post('/api/v2/organizations/other/agent-pools', poolBody({ name: 'unique' }))).status).toBe(201);
  });

  it('refuses to delete a pool that workspaces use (409), lists them, and allows it once they leave', async () => {
    const pool = await createAgentPool(api, 'acme', 'busy');
    const ws = (
      await createWorkspace(api, 'acme', { name: 'uses-pool', 'execution-mode': 'agent', 'agent-pool-id': pool })
    ).body.data;
    expect((await api.get(`/api/v2/agent-pools/${pool}`)).body.data.relationships.workspaces.data).toEqual([
      { id: ws.id, type: 'workspaces' },
    ]);
    const res = await api.delete(`/api/v2/agent-pools/${pool}`);
    expect(res.status).toBe(409);
    expect(res.body.errors[0]).toMatchObject({ status: '409', title: 'conflict' });
    await api.patch(`/api/v2/workspaces/${ws.id}`, {
      data: { type: 'workspaces', attributes: { 'execution-mode': 'remote' } },
    });
    expect((await api.delete(`/api/v2/agent-pools/${pool}`)).status).toBe(204);
  });

  it('only owners (and org tokens) manage pools; members read; others get 404', async () => {
    const member = await teamUser(api, 'acme', 'member', { manage_workspaces: 1 });
    const outsider = await teamUser(api, 'other', 'outsider', { is_owners: 1 });
    const pool = await createAgentPool(api, 'acme', 'guarded');
    expect(
      (await api.post('/api/v2/organizations/acme/agent-pools', poolBody({ name: 'mine' }), { token: member })).status,
    ).toBe(404);
    expect((await api.get(`/api/v2/agent-pools/${pool}`, { token: member })).status).toBe(200);
    expect((await api.delete(`/api/v2/agent-pools/${pool}`, { token: member })).status).toBe(404);
    expect((await api.get(`/api/v2/agent-pools/${pool}`, { token: outsider })).status).toBe(404);
    expect((await api.get('/api/v2/organizations/acme/agent-pools', { token: outsider })).status).toBe(404);
  });

  it('OAuth tokens: create (default github), list, read; unknown provider 422; 404 for others', async () => {
    const res = await api.post('/api/v2/organizations/acme/oauth-tokens', {
      data: { type: 'oauth-tokens', attributes: {} },
    });
    expect(res.status).toBe(201);
    expect(res.body.data).toMatchObject({
      id: expect.stringMatching(/^ot-[A-Za-z0-9]{16}$/),
      type: 'oauth-tokens',
      attributes: { 'service-provider': 'github', 'has-ssh-key': false },
      relationships: { organization: { data: { id: 'acme', type: 'organizations' } } },
    });
    const gl = await api.post('/api/v2/organizations/acme/oauth-tokens', {
      data: { type: 'oauth-tokens', attributes: { 'service-provider': 'gitlab_hosted', name: 'gl' } },
    });
    expect(gl.body.data.attributes).toMatchObject({ 'service-provider': 'gitlab_hosted', name: 'gl' });
    const list = await api.get('/api/v2/organizations/acme/oauth-tokens');
    expect(list.body.data.map((t: any) => t.id)).toEqual([res.body.data.id, gl.body.data.id]);
    expect((await api.get(`/api/v2/oauth-tokens/${gl.body.data.id}`)).body.data).toEqual(gl.body.data);
    const bad = await api.post('/api/v2/organizations/acme/oauth-tokens', {
      data: { type: 'oauth-tokens', attributes: { 'service-provider': 'svn' } },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].source.pointer).toBe('/data/attributes/service-provider');
    const outsider = await teamUser(api, 'other', 'outsider2', { is_owners: 1 });
    expect((await api.get(`/api/v2/oauth-tokens/${gl.body.data.id}`, { token: outsider })).status).toBe(404);
    const member = await teamUser(api, 'acme', 'member2', { manage_workspaces: 1 });
    expect(
      (
        await api.post(
          '/api/v2/organizations/acme/oauth-tokens',
          { data: { type: 'oauth-tokens', attributes: {} } },
          { token: member },
        )
      ).status,
    ).toBe(404);
  });
});
