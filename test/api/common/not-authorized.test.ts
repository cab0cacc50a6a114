import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi, type ApiResponse } from '../../helpers/api.js';
import { approvedConsumersOnly } from '../../helpers/remote-state.js';
import { accessFixture, grantProject, grantWorkspace, teamMember, type AccessFixture } from '../../helpers/access.js';

/**
 * Issue 20 item 2: a caller who can read a workspace or project but may not act on it gets the
 * spec's 404 ("existence is not distinguished from lack of permission"), as one JSON:API error
 * whose detail names the action, and nothing changes. 403 stays where the spec names it.
 */
describe('refusals of callers who may read but not act', () => {
  let api: TestApi;
  let f: AccessFixture;
  let reader: string; // workspace read on web
  let wsAdmin: string; // workspace admin on web
  let projectReader: string; // project read on Alpha
  let beta: string; // a workspace in Beta, readable by the reader
  let keyId: string;

  const refusal = (action: string) => ({
    errors: [{ status: '404', title: 'not found', detail: `not found, or you are not authorized to ${action}` }],
  });
  const expectRefused = (res: ApiResponse, action: string) => {
    expect(res.status, res.text).toBe(404);
    expect(res.body).toEqual(refusal(action));
  };

  beforeAll(async () => {
    api = await TestApi.create();
    await approvedConsumersOnly(api);
    f = await accessFixture(api);
    const r = await teamMember(f, 'readers');
    await grantWorkspace(f, r.teamId, f.web, 'read');
    reader = r.token;
    const a = await teamMember(f, 'admins');
    await grantWorkspace(f, a.teamId, f.web, 'admin');
    wsAdmin = a.token;
    const p = await teamMember(f, 'project-readers');
    await grantProject(f, p.teamId, f.alpha, 'read');
    projectReader = p.token;
    const other = await api.post(
      '/api/v2/organizations/acme/workspaces',
      { data: { type: 'workspaces', attributes: { name: 'other' } } },
      { token: f.owner.token },
    );
    expect(other.status, other.text).toBe(201);
    beta = other.body.data.id;
    await grantWorkspace(f, r.teamId, beta, 'read');
    await grantWorkspace(f, a.teamId, beta, 'read');
    const key = await api.post(
      '/api/v2/organizations/acme/ssh-keys',
      { data: { type: 'ssh-keys', attributes: { name: 'deploy', value: 'PRIVATE KEY' } } },
      { token: f.owner.token },
    );
    expect(key.status, key.text).toBe(201);
    keyId = key.body.data.id;
  });
  afterAll(() => api.close());

  it('lock, unlock and force-unlock', async () => {
    const ws = `/api/v2/workspaces/${f.web}/actions`;
    expectRefused(await api.post(`${ws}/lock`, { reason: 'mine' }, { token: reader }), 'lock or unlock this workspace');
    expect((await api.post(`${ws}/lock`, {}, { token: f.owner.token })).status).toBe(200);
    expectRefused(await api.post(`${ws}/unlock`, undefined, { token: reader }), 'lock or unlock this workspace');
    expectRefused(await api.post(`${ws}/force-unlock`, undefined, { token: reader }), 'force-unlock this workspace');
    expect((await api.post(`${ws}/unlock`, undefined, { token: f.owner.token })).status).toBe(200);
  });

  it('workspace PATCH, by id and by name', async () => {
    const body = { data: { type: 'workspaces', attributes: { description: 'mine' } } };
    expectRefused(
      await api.patch(`/api/v2/workspaces/${f.web}`, body, { token: reader }),
      `update workspace web (${f.web})`,
    );
    expectRefused(
      await api.patch('/api/v2/organizations/acme/workspaces/web', body, { token: reader }),
      `update workspace web (${f.web})`,
    );
  });

  it('remote state consumers: PATCH by a workspace admin, POST and DELETE by a reader', async () => {
    const path = `/api/v2/workspaces/${f.web}/relationships/remote-state-consumers`;
    const body = { data: [{ type: 'workspaces', id: beta }] };
    const what = `the remote state consumers of workspace web (${f.web})`;
    expectRefused(await api.patch(path, body, { token: wsAdmin }), `replace ${what}`);
    expectRefused(await api.post(path, body, { token: reader }), `add ${what}`);
    expect((await api.post(path, body, { token: f.owner.token })).status).toBe(204);
    expectRefused(await api.delete(path, { token: reader, body }), `remove ${what}`);
    const list = await api.get(path, { token: f.owner.token });
    expect(list.body.data.map((w: { id: string }) => w.id)).toEqual([beta]);
  });

  it('flat tags POST and DELETE, SSH key assignment, tag-binding PATCH', async () => {
    const tags = `/api/v2/workspaces/${f.web}/relationships/tags`;
    const byName = { data: [{ type: 'tags', attributes: { name: 'prod' } }] };
    const manage = `manage the tags of workspace web (${f.web})`;
    expectRefused(await api.post(tags, byName, { token: reader }), manage);
    expect((await api.post(tags, byName, { token: f.owner.token })).status).toBe(204);
    expectRefused(await api.delete(tags, { token: reader, body: byName }), manage);
    expectRefused(
      await api.patch(
        `/api/v2/workspaces/${f.web}/relationships/ssh-key`,
        { data: { type: 'workspaces', attributes: { id: keyId } } },
        { token: reader },
      ),
      'change the SSH key of this workspace',
    );
    expectRefused(
      await api.patch(
        `/api/v2/workspaces/${f.web}/tag-bindings`,
        { data: [{ type: 'tag-bindings', attributes: { key: 'env', value: 'x' } }] },
        { token: reader },
      ),
      manage,
    );
    const ws = await api.get(`/api/v2/workspaces/${f.web}`, { token: f.owner.token });
    expect(ws.body.data.attributes['tag-names']).toEqual(['prod']);
    expect(ws.body.data.relationships['ssh-key']?.data ?? null).toBeNull();
    const bindings = await api.get(`/api/v2/workspaces/${f.web}/tag-bindings`, { token: f.owner.token });
    expect(bindings.body.data).toEqual([]);
  });

  it('data retention policy POST and DELETE', async () => {
    const path = `/api/v2/workspaces/${f.web}/relationships/data-retention-policy`;
    const policy = {
      data: { type: 'data-retention-policy-delete-olders', attributes: { 'delete-older-than-n-days': 3 } },
    };
    expectRefused(await api.post(path, policy, { token: reader }), 'set the data retention policy of this workspace');
    expect((await api.post(path, policy, { token: f.owner.token })).status).toBe(200);
    expectRefused(await api.delete(path, { token: reader }), 'delete the data retention policy of this workspace');
    const kept = await api.get(path, { token: f.owner.token });
    expect(kept.body.data.attributes['delete-older-than-n-days']).toBe(3);
  });

  it('project PATCH and project tag-binding PATCH by a project reader', async () => {
    expectRefused(
      await api.patch(
        `/api/v2/projects/${f.alpha}`,
        { data: { type: 'projects', attributes: { name: 'Mine' } } },
        { token: projectReader },
      ),
      `update project Alpha (${f.alpha})`,
    );
    expectRefused(
      await api.patch(
        `/api/v2/projects/${f.alpha}/tag-bindings`,
        { data: [{ type: 'tag-bindings', attributes: { key: 'env', value: 'x' } }] },
        { token: projectReader },
      ),
      `manage the tags of project Alpha (${f.alpha})`,
    );
    const project = await api.get(`/api/v2/projects/${f.alpha}`, { token: f.owner.token });
    expect(project.body.data.attributes.name).toBe('Alpha');
  });

  it('create, in an organization the caller can read: 404 like the rest (HCP: forbidden requests get 404)', async () => {
    expectRefused(
      await api.post(
        '/api/v2/organizations/acme/workspaces',
        { data: { type: 'workspaces', attributes: { name: 'mine' } } },
        { token: reader },
      ),
      'create workspaces in organization acme',
    );
    expectRefused(
      await api.post(
        '/api/v2/organizations/acme/projects',
        { data: { type: 'projects', attributes: { name: 'Mine' } } },
        { token: projectReader },
      ),
      'create projects in organization acme',
    );
    const names = await api.get('/api/v2/organizations/acme/workspaces', { token: f.owner.token });
    expect(names.body.data.map((w: { attributes: { name: string } }) => w.attributes.name).sort()).toEqual([
      'other',
      'web',
    ]);
  });

  it('keeps 403 where the spec names it: force delete (moves: workspaces-move.test.ts)', async () => {
    const del = await api.delete(`/api/v2/workspaces/${f.web}`, { token: wsAdmin });
    expect(del.status).toBe(403);
    expect(del.body.errors).toEqual([
      { status: '403', title: 'forbidden', detail: 'not authorized to force delete this workspace' },
    ]);
    expect((await api.get(`/api/v2/workspaces/${f.web}`, { token: f.owner.token })).status).toBe(200);
  });
});
