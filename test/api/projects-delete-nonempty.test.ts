import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { TestApi } from '../helpers/api.js';
import { createProject, expectRejected } from '../helpers/projects.js';

// Workspaces do not exist in this branch yet, so the workspace count of a project is stubbed here:
// projects whose name starts with "busy" report two workspaces. Once the workspaces issue lands,
// a test that creates real workspaces should replace this stub.
const busy = new Set<string>();
vi.mock('../../src/services/projects-read.js', async (importOriginal) => {
  const original = await importOriginal<typeof import('../../src/services/projects-read.js')>();
  return {
    ...original,
    projectCounts: async (db: any, id: string) => (busy.has(id) ? { workspaceCount: 2, teamCount: 0 } : original.projectCounts(db, id)),
  };
});

describe('DELETE /projects/:id of a project that still contains workspaces', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.create();
    expect((await api.createOrg('acme')).status).toBe(201);
  });
  afterAll(() => api.close());

  it('answers 409 with a detail that says so, and deletes nothing', async () => {
    const p = await createProject(api, 'acme', { name: 'Busy' }, [{ key: 'a', value: 'b' }]);
    busy.add(p.id);
    await expectRejected(api, () => api.delete(`/api/v2/projects/${p.id}`), {
      status: 409,
      title: 'conflict',
      detail: `Project ${p.id} still contains 2 workspaces; move or delete them before deleting the project`,
    });
    expect((await api.get(`/api/v2/projects/${p.id}`)).body.data.attributes['workspace-count']).toBe(2);
  });

  it('deletes the project once it is empty', async () => {
    const p = await createProject(api, 'acme', { name: 'Emptied' });
    busy.add(p.id);
    expect((await api.delete(`/api/v2/projects/${p.id}`)).status).toBe(409);
    busy.delete(p.id);
    expect((await api.delete(`/api/v2/projects/${p.id}`)).status).toBe(204);
  });
});
