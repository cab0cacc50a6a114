import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { createWorkspace, teamUser } from '../../helpers/workspaces.js';

// A user who holds workspace locks is not deleted: the locks would point at a deleted id.
describe('DELETE /admin/users/:id of a user holding locks', () => {
  let api: TestApi;
  let alice: string;
  let aliceId: string;
  let wsId: string;

  beforeAll(async () => {
    api = await TestApi.create();
    await api.createOrg('acme');
    wsId = (await createWorkspace(api, 'acme', { name: 'app' })).body.data.id;
    await createWorkspace(api, 'acme', { name: 'free' });
    alice = await teamUser(api, 'acme', 'alice', { manage_workspaces: 1 });
    aliceId = (await api.get('/api/v2/account/details', { token: alice })).body.data.id;
    expect((await api.post(`/api/v2/workspaces/${wsId}/actions/lock`, undefined, { token: alice })).status).toBe(200);
  });
  afterAll(() => api.close());

  it('answers 409 naming the locked workspaces, and changes nothing', async () => {
    const res = await api.delete(`/api/v2/admin/users/${aliceId}`);
    expect(res.status).toBe(409);
    expect(res.body.errors[0].detail).toBe(
      `user ${aliceId} holds the lock of 1 workspace: acme/app; unlock them (force-unlock) before deleting the user`,
    );
    expect((await api.get(`/api/v2/workspaces/${wsId}`)).body.data.attributes.locked).toBe(true);
    expect((await api.get('/api/v2/account/details', { token: alice })).status).toBe(200);
  });

  it('deletes the user once the lock is released', async () => {
    expect((await api.post(`/api/v2/workspaces/${wsId}/actions/force-unlock`)).status).toBe(200);
    expect((await api.delete(`/api/v2/admin/users/${aliceId}`)).status).toBe(204);
    expect((await api.get('/api/v2/account/details', { token: alice })).status).toBe(401);
  });
});
