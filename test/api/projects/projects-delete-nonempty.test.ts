import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { createProject, expectRejected } from '../../helpers/projects.js';

describe('DELETE /projects/:id of a project that still contains workspaces', () => {
  let api: TestApi;
  const workspaceIn = async (name: string, projectId: string) => {
    const res = await api.post('/api/v2/organizations/acme/workspaces', {
      data: {
        type: 'workspaces',
        attributes: { name },
        relationships: { project: { data: { type: 'projects', id: projectId } } },
      },
    });
    expect(res.status).toBe(201);
    return res.body.data.id as string;
  };

  beforeAll(async () => {
    api = await TestApi.create();
    expect((await api.createOrg('acme')).status).toBe(201);
  });
  afterAll(() => api.close());

  it('answers 409 with a detail that says so, and deletes nothing', async () => {
    const p = await createProject(api, 'acme', { name: 'Busy' }, [{ key: 'a', value: 'b' }]);
    await workspaceIn('busy-1', p.id);
    await workspaceIn('busy-2', p.id);
    await expectRejected(api, () => api.delete(`/api/v2/projects/${p.id}`), {
      status: 409,
      title: 'conflict',
      detail: `Project Busy (${p.id}) still contains 2 workspaces; move or delete them before deleting the project`,
    });
    expect((await api.get(`/api/v2/projects/${p.id}`)).body.data.attributes['workspace-count']).toBe(2);
  });

  it('deletes the project once it is empty', async () => {
    const p = await createProject(api, 'acme', { name: 'Emptied' });
    const ws = await workspaceIn('leaving', p.id);
    expect((await api.delete(`/api/v2/projects/${p.id}`)).status).toBe(409);
    expect((await api.delete(`/api/v2/workspaces/${ws}`)).status).toBe(204);
    expect((await api.delete(`/api/v2/projects/${p.id}`)).status).toBe(204);
    expect((await api.get(`/api/v2/projects/${p.id}`)).status).toBe(404);
  });

  it('deleting the organization removes its projects and workspaces together', async () => {
    await api.createOrg('gone');
    const res = await api.post('/api/v2/organizations/gone/workspaces', {
      data: { type: 'workspaces', attributes: { name: 'w' } },
    });
    expect(res.status).toBe(201);
    expect((await api.delete('/api/v2/organizations/gone')).status).toBe(204);
    expect((await api.get(`/api/v2/workspaces/${res.body.data.id}`)).status).toBe(404);
  });
});
