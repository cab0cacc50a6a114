import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { createProject, projectBody } from '../../helpers/projects.js';

describe('projects with organization and team tokens', () => {
  let api: TestApi;
  let orgToken: string;
  beforeAll(async () => {
    api = await TestApi.create();
    expect((await api.createOrg('acme')).status).toBe(201);
    expect((await api.createOrg('other')).status).toBe(201);
    const res = await api.post('/api/v2/organizations/acme/authentication-token', {
      data: { type: 'authentication-tokens', attributes: {} },
    });
    expect(res.status).toBe(201);
    orgToken = res.body.data.attributes.token;
  });
  afterAll(() => api.close());

  it('an organization token creates, updates, tags, lists and deletes projects of its organization', async () => {
    const p = await createProject(api, 'acme', { name: 'By Token' }, [{ key: 'a', value: 'b' }], orgToken);
    expect(p.attributes.permissions).toMatchObject({
      'can-update': true,
      'can-destroy': true,
      'can-create-workspace': true,
    });
    expect(
      (await api.patch(`/api/v2/projects/${p.id}`, projectBody({ description: 'x' }), { token: orgToken })).status,
    ).toBe(200);
    expect((await api.patch(`/api/v2/projects/${p.id}/tag-bindings`, { data: [] }, { token: orgToken })).status).toBe(
      200,
    );
    const list = await api.get('/api/v2/organizations/acme/projects?filter[permissions][update]=true', {
      token: orgToken,
    });
    expect(list.body.data.map((x: any) => x.attributes.name)).toEqual(['By Token', 'Default Project']);
    expect((await api.delete(`/api/v2/projects/${p.id}`, { token: orgToken })).status).toBe(204);
  });

  it('an organization token sees nothing of another organization (404)', async () => {
    const other = await createProject(api, 'other', { name: 'Elsewhere' });
    expect((await api.get(`/api/v2/projects/${other.id}`, { token: orgToken })).status).toBe(404);
    expect((await api.get('/api/v2/organizations/other/projects', { token: orgToken })).status).toBe(404);
    expect(
      (await api.post('/api/v2/organizations/other/projects', projectBody({ name: 'Nope' }), { token: orgToken }))
        .status,
    ).toBe(404);
  });
});
