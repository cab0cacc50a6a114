import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { addToTeam, createProject, expectRejected, projectBody, tagData } from '../../helpers/projects.js';

type User = { userId: string; token: string };

describe('who may do what with projects', () => {
  let api: TestApi;
  let owner: User; // created the organization with a user token: member of owners
  let manager: User; // team with "manage projects"
  let reader: User; // team with "read projects" only
  let bystander: User; // member of a team without any project permission
  let stranger: User; // not a member of the organization
  let project: any;

  const notFound = (id: string) => ({ status: 404, title: 'not found', detail: `project ${id} not found` });
  const forbidden = (detail: string) => ({ status: 403, title: 'forbidden', detail });
  /** The refusal of a caller who can read but may not act: a 404 naming the action. */
  const notAuthorized = (action: string) => ({
    status: 404,
    title: 'not found',
    detail: `not found, or you are not authorized to ${action}`,
  });

  beforeAll(async () => {
    api = await TestApi.create();
    owner = await api.userToken('olivia');
    manager = await api.userToken('manny');
    reader = await api.userToken('reed');
    bystander = await api.userToken('bea');
    stranger = await api.userToken('stan');
    expect((await api.createOrg('acme', owner.token)).status).toBe(201);
    await addToTeam(api, 'acme', manager.userId, { manage_projects: 1 });
    await addToTeam(api, 'acme', reader.userId, { read_projects: 1 });
    await addToTeam(api, 'acme', bystander.userId, { read_workspaces: 1 });
    project = await createProject(api, 'acme', { name: 'Shared' }, [{ key: 'env', value: 'prod' }], owner.token);
  });
  afterAll(() => api.close());

  describe('a user token of an owner', () => {
    it('creates, updates, tags and deletes projects', async () => {
      const p = await createProject(api, 'acme', { name: 'Owned' }, [], owner.token);
      expect(p.attributes.permissions).toMatchObject({
        'can-read': true,
        'can-update': true,
        'can-destroy': true,
        'can-create-workspace': true,
      });
      expect(
        (await api.patch(`/api/v2/projects/${p.id}`, projectBody({ description: 'mine' }), { token: owner.token }))
          .status,
      ).toBe(200);
      expect(
        (
          await api.patch(
            `/api/v2/projects/${p.id}/tag-bindings`,
            { data: tagData([{ key: 'a', value: 'b' }]) },
            { token: owner.token },
          )
        ).status,
      ).toBe(200);
      expect((await api.delete(`/api/v2/projects/${p.id}`, { token: owner.token })).status).toBe(204);
    });

    it('cannot delete the default project either (409)', async () => {
      const org = await api.get('/api/v2/organizations/acme', { token: owner.token });
      const id = org.body.data.relationships['default-project'].data.id;
      const res = await api.delete(`/api/v2/projects/${id}`, { token: owner.token });
      expect(res.status).toBe(409);
    });
  });

  describe('a member of a team with "manage projects"', () => {
    it('creates, updates, tags and deletes projects', async () => {
      const p = await createProject(api, 'acme', { name: 'Managed' }, [], manager.token);
      expect(p.attributes.permissions).toMatchObject({ 'can-update': true, 'can-destroy': true });
      expect(
        (await api.patch(`/api/v2/projects/${p.id}`, projectBody({ name: 'Managed 2' }), { token: manager.token }))
          .status,
      ).toBe(200);
      expect(
        (await api.patch(`/api/v2/projects/${p.id}/relationships/tag-bindings`, { data: [] }, { token: manager.token }))
          .status,
      ).toBe(204);
      expect((await api.delete(`/api/v2/projects/${p.id}`, { token: manager.token })).status).toBe(204);
    });

    it('sees every project under filter[permissions][update]', async () => {
      const res = await api.get('/api/v2/organizations/acme/projects?filter[permissions][update]=true', {
        token: manager.token,
      });
      expect(res.body.data.map((p: any) => p.attributes.name)).toEqual(['Shared', 'Default Project']);
    });
  });

  describe('a member of a team that may only read projects', () => {
    it('reads projects, with permissions computed for the caller', async () => {
      const res = await api.get(`/api/v2/projects/${project.id}`, { token: reader.token });
      expect(res.status).toBe(200);
      expect(res.body.data.attributes.permissions).toEqual({
        'can-read': true,
        'can-update': false,
        'can-destroy': false,
        'can-create-workspace': false,
        'can-move-workspace': false,
        'can-manage-tags': false,
        'can-manage-teams': false,
      });
      expect((await api.get(`/api/v2/projects/${project.id}/tag-bindings`, { token: reader.token })).status).toBe(200);
      const list = await api.get('/api/v2/organizations/acme/projects', { token: reader.token });
      expect(list.body.data.map((p: any) => p.id)).toContain(project.id);
    });

    it('may not create (404: not found, or not authorized)', async () => {
      await expectRejected(
        api,
        () => api.post('/api/v2/organizations/acme/projects', projectBody({ name: 'Nope' }), { token: reader.token }),
        notAuthorized('create projects in organization acme'),
      );
    });

    it('may not update (404) and nothing changes', async () => {
      await expectRejected(
        api,
        () => api.patch(`/api/v2/projects/${project.id}`, projectBody({ name: 'Hijacked' }), { token: reader.token }),
        notAuthorized(`update project Shared (${project.id})`),
      );
    });

    it('may not change tag bindings on any path (404) and nothing changes', async () => {
      const refusal = notAuthorized(`manage the tags of project Shared (${project.id})`);
      const body = { data: tagData([{ key: 'x', value: 'y' }]) };
      await expectRejected(
        api,
        () => api.patch(`/api/v2/projects/${project.id}/tag-bindings`, body, { token: reader.token }),
        refusal,
      );
      await expectRejected(
        api,
        () => api.post(`/api/v2/projects/${project.id}/relationships/tag-bindings`, body, { token: reader.token }),
        refusal,
      );
      await expectRejected(
        api,
        () => api.patch(`/api/v2/projects/${project.id}/relationships/tag-bindings`, body, { token: reader.token }),
        refusal,
      );
    });

    it('may not delete: 403, and the project stays', async () => {
      await expectRejected(
        api,
        () => api.delete(`/api/v2/projects/${project.id}`, { token: reader.token }),
        forbidden(`not authorized to delete project Shared (${project.id})`),
      );
    });

    it('gets nothing under filter[permissions][update] or [create-workspace]', async () => {
      for (const perm of ['update', 'create-workspace']) {
        const res = await api.get(`/api/v2/organizations/acme/projects?filter%5Bpermissions%5D%5B${perm}%5D=true`, {
          token: reader.token,
        });
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual([]);
        expect(res.body.meta['status-counts']).toEqual({ total: 2, matching: 0 });
      }
    });

    it('filters under filter[permissions][update] whatever its value: the spec says "when present"', async () => {
      for (const value of ['false', '', '0']) {
        const res = await api.get(`/api/v2/organizations/acme/projects?filter[permissions][update]=${value}`, {
          token: reader.token,
        });
        expect(res.status).toBe(200);
        expect(res.body.data).toEqual([]);
        expect(res.body.meta['status-counts']).toEqual({ total: 2, matching: 0 });
      }
      const absent = await api.get('/api/v2/organizations/acme/projects', { token: reader.token });
      expect(absent.body.data).toHaveLength(2);
    });
  });

  describe('a member without project permissions', () => {
    it('gets 404 for a project and an empty list', async () => {
      const res = await api.get(`/api/v2/projects/${project.id}`, { token: bystander.token });
      expect(res.status).toBe(404);
      expect(res.body.errors).toEqual([{ ...notFound(project.id), status: '404' }]);
      const list = await api.get('/api/v2/organizations/acme/projects', { token: bystander.token });
      expect(list.status).toBe(200);
      expect(list.body.data).toEqual([]);
      expect(list.body.meta['status-counts']).toEqual({ total: 0, matching: 0 });
    });

    it('gets 404 (not 403) when deleting, since it cannot read the project', async () => {
      await expectRejected(
        api,
        () => api.delete(`/api/v2/projects/${project.id}`, { token: bystander.token }),
        notFound(project.id),
      );
    });
  });

  describe('a user who is not a member of the organization', () => {
    it('gets 404 everywhere and changes nothing', async () => {
      const t = { token: stranger.token };
      const id = project.id;
      expect((await api.get(`/api/v2/projects/${id}`, t)).body.errors).toEqual([{ ...notFound(id), status: '404' }]);
      expect((await api.get('/api/v2/organizations/acme/projects', t)).status).toBe(404);
      expect((await api.get(`/api/v2/projects/${id}/tag-bindings`, t)).status).toBe(404);
      expect((await api.get(`/api/v2/projects/${id}/effective-tag-bindings`, t)).status).toBe(404);
      await expectRejected(
        api,
        () => api.post('/api/v2/organizations/acme/projects', projectBody({ name: 'Intruder' }), t),
        {
          status: 404,
          title: 'not found',
          detail: 'organization acme not found',
        },
      );
      await expectRejected(
        api,
        () => api.patch(`/api/v2/projects/${id}`, projectBody({ name: 'Intruder' }), t),
        notFound(id),
      );
      await expectRejected(api, () => api.patch(`/api/v2/projects/${id}/tag-bindings`, { data: [] }, t), notFound(id));
      await expectRejected(api, () => api.delete(`/api/v2/projects/${id}`, t), notFound(id));
    });
  });

  it('requires a token (401)', async () => {
    const res = await api.get(`/api/v2/projects/${project.id}`, { token: null });
    expect(res.status).toBe(401);
  });
});
