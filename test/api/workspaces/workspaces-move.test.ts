import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import {
  createWorkspace,
  defaultProjectId,
  insertProject,
  storeSnapshot,
  teamUser,
  wsBody,
} from '../../helpers/workspaces.js';

const projectOf = async (api: TestApi, id: string) =>
  (await api.store.db.selectFrom('workspaces').select('project_id').where('id', '=', id).executeTakeFirstOrThrow())
    .project_id;
const moveBody = (...ids: string[]) => ({ data: ids.map((id) => ({ type: 'workspaces', id })) });

describe('moving workspaces between projects', () => {
  let api: TestApi;
  let home: string;
  let alpha: string;
  let beta: string;
  let wsAdmin: string;
  let projectAdmin: string;

  beforeAll(async () => {
    api = await TestApi.create();
    await api.createOrg('acme');
    await api.createOrg('other');
    home = await defaultProjectId(api, 'acme');
    alpha = await insertProject(api, 'acme', 'Alpha');
    beta = await insertProject(api, 'acme', 'Beta');
    wsAdmin = await teamUser(api, 'acme', 'wsadmin', { manage_workspaces: 1 });
    projectAdmin = await teamUser(api, 'acme', 'prjadmin', { manage_projects: 1, manage_workspaces: 1 });
  });
  afterAll(() => api.close());

  describe('through relationships.project on update', () => {
    it.each([
      ['by id', (ws: any) => `/api/v2/workspaces/${ws.id}`],
      ['by name', (ws: any) => `/api/v2/organizations/acme/workspaces/${ws.attributes.name}`],
    ])('moves %s; blank or unchanged means no move', async (label, path) => {
      const ws = (await createWorkspace(api, 'acme', { name: `mv-${label.replace(' ', '-')}` })).body.data;
      const res = await api.patch(path(ws), wsBody({}, { project: { data: { type: 'projects', id: alpha } } }));
      expect(res.status).toBe(200);
      expect(res.body.data.relationships.project.data.id).toBe(alpha);
      expect(await projectOf(api, ws.id)).toBe(alpha);
      for (const blank of [
        { data: null },
        { data: { type: 'projects', id: '' } },
        { data: { type: 'projects', id: alpha } },
      ]) {
        const same = await api.patch(path(ws), wsBody({}, { project: blank }));
        expect(same.status).toBe(200);
        expect(await projectOf(api, ws.id)).toBe(alpha);
      }
    });

    it('needs admin on both projects: 403 for a workspace admin without project admin, nothing moved', async () => {
      const ws = (await createWorkspace(api, 'acme', { name: 'guarded' })).body.data;
      const before = await storeSnapshot(api);
      const res = await api.patch(
        `/api/v2/workspaces/${ws.id}`,
        wsBody({ description: 'moving' }, { project: { data: { type: 'projects', id: beta } } }),
        { token: wsAdmin },
      );
      expect(res.status).toBe(403);
      expect(res.body.errors[0]).toMatchObject({ status: '403', title: 'forbidden' });
      expect(await storeSnapshot(api)).toEqual(before);
      // The same caller may change other settings.
      expect(
        (await api.patch(`/api/v2/workspaces/${ws.id}`, wsBody({ description: 'fine' }), { token: wsAdmin })).status,
      ).toBe(200);
      const ok = await api.patch(
        `/api/v2/workspaces/${ws.id}`,
        wsBody({}, { project: { data: { type: 'projects', id: beta } } }),
        { token: projectAdmin },
      );
      expect(ok.status).toBe(200);
      expect(await projectOf(api, ws.id)).toBe(beta);
    });
  });

  describe('POST /projects/:id/relationships/workspaces', () => {
    it('moves every workspace (204, no body) and updates workspace counts', async () => {
      const a = (await createWorkspace(api, 'acme', { name: 'bulk-a' })).body.data;
      const b = (
        await createWorkspace(api, 'acme', { name: 'bulk-b' }, { project: { data: { type: 'projects', id: alpha } } })
      ).body.data;
      const target = await insertProject(api, 'acme', 'Target');
      const res = await api.post(`/api/v2/projects/${target}/relationships/workspaces`, moveBody(a.id, b.id));
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(await projectOf(api, a.id)).toBe(target);
      expect(await projectOf(api, b.id)).toBe(target);
      const read = await api.get(`/api/v2/workspaces/${a.id}?include=project`);
      expect(read.body.included[0]).toMatchObject({
        id: target,
        type: 'projects',
        attributes: { 'workspace-count': 2, 'team-count': 0 },
      });
    });

    it('reads only type and id from full workspace resources (go-tfe array bodies)', async () => {
      const ws = (await createWorkspace(api, 'acme', { name: 'full-body' })).body.data;
      const body = {
        data: [
          {
            type: 'workspaces',
            id: ws.id,
            attributes: { name: '', 'allow-destroy-plan': false, permissions: null },
            relationships: { 'agent-pool': { data: null }, outputs: { data: [] } },
          },
        ],
      };
      expect((await api.post(`/api/v2/projects/${beta}/relationships/workspaces`, body)).status).toBe(204);
      expect(await projectOf(api, ws.id)).toBe(beta);
    });

    it('is all-or-nothing: an unknown or foreign workspace is a 403 naming the ids, and nothing moves', async () => {
      const ws = (await createWorkspace(api, 'acme', { name: 'stays' })).body.data;
      const foreign = (await createWorkspace(api, 'other', { name: 'foreign' })).body.data;
      const before = await storeSnapshot(api);
      const res = await api.post(
        `/api/v2/projects/${alpha}/relationships/workspaces`,
        moveBody(ws.id, 'ws-AAAAAAAAAAAAAAAA', foreign.id),
      );
      expect(res.status).toBe(403);
      expect(res.body).toEqual({
        errors: [
          {
            status: '403',
            title: 'forbidden',
            detail: `Workspace(s) not found, or you are not authorized to move them: ws-AAAAAAAAAAAAAAAA, ${foreign.id}`,
          },
        ],
      });
      expect(await storeSnapshot(api)).toEqual(before);
      expect(await projectOf(api, ws.id)).toBe(home);
    });

    it('404 for an unknown destination, one of another organization seen by a non-member, or a caller who may not move into it', async () => {
      const ws = (await createWorkspace(api, 'acme', { name: 'dest-rules' })).body.data;
      const unknown = await api.post('/api/v2/projects/prj-AAAAAAAAAAAAAAAA/relationships/workspaces', moveBody(ws.id));
      expect(unknown.status).toBe(404);
      expect(unknown.body.errors[0]).toMatchObject({ status: '404', title: 'not found' });
      const otherProject = await defaultProjectId(api, 'other');
      expect(
        (
          await api.post(`/api/v2/projects/${otherProject}/relationships/workspaces`, moveBody(ws.id), {
            token: projectAdmin,
          })
        ).status,
      ).toBe(404);
      expect(
        (await api.post(`/api/v2/projects/${alpha}/relationships/workspaces`, moveBody(ws.id), { token: wsAdmin }))
          .status,
      ).toBe(404);
      // A workspace of this organization named against a project of another: not found there, 403.
      const cross = await api.post(`/api/v2/projects/${otherProject}/relationships/workspaces`, moveBody(ws.id));
      expect(cross.status).toBe(403);
      expect(await projectOf(api, ws.id)).toBe(home);
      expect(
        (await api.post(`/api/v2/projects/${alpha}/relationships/workspaces`, moveBody(ws.id), { token: projectAdmin }))
          .status,
      ).toBe(204);
    });

    it('422 for a malformed body', async () => {
      const ws = (await createWorkspace(api, 'acme', { name: 'bad-body' })).body.data;
      for (const [body, pointer] of [
        [{ data: { type: 'workspaces', id: ws.id } }, '/data'],
        [{ data: [] }, '/data'],
        [{ data: [{ type: 'projects', id: ws.id }] }, '/data/0/type'],
        [{ data: [{ type: 'workspaces' }] }, '/data/0/id'],
      ] as const) {
        const res = await api.post(`/api/v2/projects/${alpha}/relationships/workspaces`, body);
        expect(res.status, JSON.stringify(body)).toBe(422);
        expect(res.body.errors[0].source.pointer).toBe(pointer);
      }
      expect(await projectOf(api, ws.id)).toBe(home);
    });
  });

  it("project workspace-count counts the project's workspaces, and a project with workspaces cannot be removed from the store", async () => {
    const p = await insertProject(api, 'acme', 'Counted');
    const { projectCounts } = await import('../../../src/services/projects/projects-read.js');
    expect(await projectCounts(api.store.db, p)).toEqual({ workspaceCount: 0, teamCount: 0 });
    const rel = { project: { data: { type: 'projects', id: p } } };
    const w1 = (await createWorkspace(api, 'acme', { name: 'count-1' }, rel)).body.data;
    await createWorkspace(api, 'acme', { name: 'count-2' }, rel);
    expect(await projectCounts(api.store.db, p)).toEqual({ workspaceCount: 2, teamCount: 0 });
    await api.post(`/api/v2/workspaces/${w1.id}/actions/safe-delete`);
    expect(await projectCounts(api.store.db, p)).toEqual({ workspaceCount: 1, teamCount: 0 });
    await expect(api.store.db.deleteFrom('projects').where('id', '=', p).execute()).rejects.toThrow(/foreign key/i);
  });

  it('deleting the organization removes its workspaces and projects together', async () => {
    await api.createOrg('doomed');
    const ws = (await createWorkspace(api, 'doomed', { name: 'w' })).body.data;
    await insertProject(api, 'doomed', 'P');
    expect((await api.delete('/api/v2/organizations/doomed')).status).toBe(204);
    expect(await api.store.db.selectFrom('workspaces').select('id').where('id', '=', ws.id).execute()).toEqual([]);
  });
});
