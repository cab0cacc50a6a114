import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import {
  accessFixture,
  grantProject,
  grantWorkspace,
  teamMember,
  teamProjectBody,
  teamWorkspaceBody,
  type AccessFixture,
} from '../../helpers/access.js';

describe('team-projects and team-workspaces', () => {
  let api: TestApi;
  let f: AccessFixture;
  let dev: { token: string; teamId: string };
  let ops: { token: string; teamId: string };

  beforeAll(async () => {
    api = await TestApi.create();
    f = await accessFixture(api);
    dev = await teamMember(f, 'dev');
    ops = await teamMember(f, 'ops');
  });
  afterAll(() => api.close());

  describe('team-projects', () => {
    it("creates a grant (200) with HCP's document and the implied permissions of the level", async () => {
      const res = await api.post(
        '/api/v2/team-projects',
        teamProjectBody(dev.teamId, f.alpha, { access: 'maintain' }),
        { token: f.owner.token },
      );
      expect(res.status, res.text).toBe(200);
      expect(res.body.data).toEqual({
        id: expect.stringMatching(/^tprj-[A-Za-z0-9]{16}$/),
        type: 'team-projects',
        attributes: {
          access: 'maintain',
          'project-access': { settings: 'read', teams: 'none', 'variable-sets': 'none' },
          'workspace-access': {
            create: true,
            move: false,
            locking: true,
            delete: true,
            runs: 'apply',
            variables: 'write',
            'state-versions': 'write',
            'sentinel-mocks': 'read',
            'run-tasks': true,
          },
        },
        relationships: {
          team: { data: { id: dev.teamId, type: 'teams' }, links: { related: `/api/v2/teams/${dev.teamId}` } },
          project: { data: { id: f.alpha, type: 'projects' }, links: { related: `/api/v2/projects/${f.alpha}` } },
        },
        links: { self: `/api/v2/team-projects/${res.body.data.id}` },
      });
      const project = await api.get(`/api/v2/projects/${f.alpha}`, { token: f.owner.token });
      expect(project.body.data.attributes['team-count']).toBe(1);
    });

    it('lists by filter[project][id] (required: 400 without), shows, updates to custom, deletes', async () => {
      expect((await api.get('/api/v2/team-projects', { token: f.owner.token })).status).toBe(400);
      const list = await api.get(`/api/v2/team-projects?filter%5Bproject%5D%5Bid%5D=${f.alpha}`, {
        token: f.owner.token,
      });
      expect(list.status).toBe(200);
      expect(list.body.data).toHaveLength(1);
      expect(list.body.meta.pagination['total-count']).toBe(1);
      const id = list.body.data[0].id;
      expect((await api.get(`/api/v2/team-projects/${id}`, { token: f.owner.token })).body.data.attributes.access).toBe(
        'maintain',
      );

      const custom = await api.patch(
        `/api/v2/team-projects/${id}`,
        {
          data: {
            type: 'team-projects',
            attributes: {
              access: 'custom',
              'project-access': { settings: 'update' },
              'workspace-access': { locking: true, runs: 'plan' },
            },
          },
        },
        { token: f.owner.token },
      );
      expect(custom.status, custom.text).toBe(200);
      // Keys the request leaves out keep what `maintain` implied (HCP shows those read-only until then).
      expect(custom.body.data.attributes).toMatchObject({
        access: 'custom',
        'project-access': { settings: 'update', teams: 'none' },
        'workspace-access': {
          locking: true,
          runs: 'plan',
          create: true,
          variables: 'write',
          'state-versions': 'write',
        },
      });
      // A custom grant keeps the permissions not named in a later update.
      const more = await api.patch(
        `/api/v2/team-projects/${id}`,
        { data: { type: 'team-projects', attributes: { 'workspace-access': { create: true } } } },
        { token: f.owner.token },
      );
      expect(more.body.data.attributes['workspace-access']).toMatchObject({
        locking: true,
        runs: 'plan',
        create: true,
      });
      // Custom permissions with a fixed level (given, or stored) are a 422.
      const mixed = await api.patch(
        `/api/v2/team-projects/${id}`,
        { data: { type: 'team-projects', attributes: { access: 'read', 'workspace-access': { create: true } } } },
        { token: f.owner.token },
      );
      expect(mixed.status).toBe(422);
      expect(mixed.body.errors[0]).toMatchObject({
        detail:
          "Workspace access is read-only when access level is 'read'; use the 'custom' access level to set this attribute.",
        source: { pointer: '/data/attributes/workspace-access' },
      });
      expect((await api.delete(`/api/v2/team-projects/${id}`, { token: f.owner.token })).status).toBe(204);
      expect((await api.get(`/api/v2/team-projects/${id}`, { token: f.owner.token })).status).toBe(404);
    });

    it('keeps project-access variable-sets: custom values as sent, admin implies write, other levels none', async () => {
      const team = await teamMember(f, 'varsets');
      const custom = await api.post(
        '/api/v2/team-projects',
        teamProjectBody(team.teamId, f.beta, {
          access: 'custom',
          'project-access': { 'variable-sets': 'write' },
          'workspace-access': { runs: 'apply' },
        }),
        { token: f.owner.token },
      );
      expect(custom.status, custom.text).toBe(200);
      expect(custom.body.data.attributes['project-access']).toEqual({
        settings: 'read',
        teams: 'none',
        'variable-sets': 'write',
      });
      const id = custom.body.data.id;
      const patch = (attributes: Record<string, unknown>) =>
        api.patch(
          `/api/v2/team-projects/${id}`,
          { data: { type: 'team-projects', attributes } },
          { token: f.owner.token },
        );
      // A later update keeps what it does not name.
      const read = await patch({
        'project-access': { 'variable-sets': 'read' },
        'workspace-access': { create: false },
      });
      expect(read.body.data.attributes['project-access']['variable-sets']).toBe('read');
      expect(read.body.data.attributes['workspace-access'].runs).toBe('apply');
      expect((await patch({ 'project-access': { 'variable-sets': 'all' } })).body.errors[0].source.pointer).toBe(
        '/data/attributes/project-access/variable-sets',
      );
      expect((await patch({ access: 'admin' })).body.data.attributes['project-access']['variable-sets']).toBe('write');
      expect((await patch({ access: 'maintain' })).body.data.attributes['project-access']['variable-sets']).toBe(
        'none',
      );
      expect((await api.get(`/api/v2/team-projects/${id}`, { token: f.owner.token })).body.data.attributes.access).toBe(
        'maintain',
      );
    });

    it('validates: 422 for a bad or missing level, bad custom values, missing relationships, a second grant for the same team; 404 for unknown team or project', async () => {
      const post = (body: unknown) => api.post('/api/v2/team-projects', body, { token: f.owner.token });
      const bad = await post(teamProjectBody(ops.teamId, f.alpha, { access: 'plan' }));
      expect(bad.status).toBe(422);
      expect(bad.body.errors[0].source.pointer).toBe('/data/attributes/access');
      expect((await post(teamProjectBody(ops.teamId, f.alpha, {}))).status).toBe(422);
      const badCustom = await post(
        teamProjectBody(ops.teamId, f.alpha, { access: 'custom', 'workspace-access': { runs: 'everything' } }),
      );
      expect(badCustom.status).toBe(422);
      expect(badCustom.body.errors[0].source.pointer).toBe('/data/attributes/workspace-access/runs');
      const noTeam = await post({
        data: {
          type: 'team-projects',
          attributes: { access: 'read' },
          relationships: { project: { data: { type: 'projects', id: f.alpha } } },
        },
      });
      expect(noTeam.status).toBe(422);
      expect(noTeam.body.errors[0].source.pointer).toBe('/data/relationships/team/data');
      expect((await post(teamProjectBody('team-AAAAAAAAAAAAAAAA', f.alpha, { access: 'read' }))).status).toBe(404);
      expect((await post(teamProjectBody(ops.teamId, 'prj-AAAAAAAAAAAAAAAA', { access: 'read' }))).status).toBe(404);
      expect((await post({ data: { type: 'team-workspaces', attributes: { access: 'read' } } })).status).toBe(422);
      const first = await post(teamProjectBody(ops.teamId, f.beta, { access: 'read' }));
      expect(first.status).toBe(200);
      expect((await post(teamProjectBody(ops.teamId, f.beta, { access: 'write' }))).status).toBe(422);
      expect((await api.delete(`/api/v2/team-projects/${first.body.data.id}`, { token: f.owner.token })).status).toBe(
        204,
      );
    });

    it("lets project admins manage access to their project only; members see their own team's grants; others get 404", async () => {
      const admin = await teamMember(f, 'alpha-admins');
      await grantProject(f, admin.teamId, f.alpha, 'admin');
      const created = await api.post(
        '/api/v2/team-projects',
        teamProjectBody(ops.teamId, f.alpha, { access: 'write' }),
        { token: admin.token },
      );
      expect(created.status, created.text).toBe(200);
      // Not admin on Beta (cannot read it): 404.
      expect(
        (
          await api.post('/api/v2/team-projects', teamProjectBody(ops.teamId, f.beta, { access: 'write' }), {
            token: admin.token,
          })
        ).status,
      ).toBe(404);
      // ops (write on Alpha) reads its own grant, not the admins' grant, and may not change it (404).
      const seen = await api.get(`/api/v2/team-projects?filter%5Bproject%5D%5Bid%5D=${f.alpha}`, { token: ops.token });
      expect(seen.body.data.map((g: any) => g.relationships.team.data.id)).toEqual([ops.teamId]);
      const mine = created.body.data.id;
      expect(
        (
          await api.patch(
            `/api/v2/team-projects/${mine}`,
            { data: { type: 'team-projects', attributes: { access: 'admin' } } },
            { token: ops.token },
          )
        ).status,
      ).toBe(404);
      const adminsGrant = (
        await api.get(`/api/v2/team-projects?filter%5Bproject%5D%5Bid%5D=${f.alpha}`, { token: f.owner.token })
      ).body.data.find((g: any) => g.relationships.team.data.id === admin.teamId).id;
      expect((await api.get(`/api/v2/team-projects/${adminsGrant}`, { token: ops.token })).status).toBe(404);
      // A user without any access to Alpha: 404 everywhere.
      const nobody = await teamMember(f, 'nobody');
      expect(
        (await api.get(`/api/v2/team-projects?filter%5Bproject%5D%5Bid%5D=${f.alpha}`, { token: nobody.token })).status,
      ).toBe(404);
      expect((await api.delete(`/api/v2/team-projects/${mine}`, { token: nobody.token })).status).toBe(404);
      // A custom grant with project-access teams "read" sees every grant on the project, but may not change them.
      const auditors = await teamMember(f, 'auditors');
      await grantProject(f, auditors.teamId, f.alpha, 'custom', { 'project-access': { teams: 'read' } });
      const audited = await api.get(`/api/v2/team-projects?filter%5Bproject%5D%5Bid%5D=${f.alpha}`, {
        token: auditors.token,
      });
      expect(audited.body.data.length).toBeGreaterThanOrEqual(3);
      expect((await api.delete(`/api/v2/team-projects/${mine}`, { token: auditors.token })).status).toBe(404);
      expect((await api.delete(`/api/v2/team-projects/${mine}`, { token: admin.token })).status).toBe(204);
    });
  });

  describe('team-workspaces', () => {
    it("creates, lists by filter[workspace][id], shows, updates and deletes with HCP's document", async () => {
      const res = await api.post('/api/v2/team-workspaces', teamWorkspaceBody(dev.teamId, f.web, { access: 'write' }), {
        token: f.owner.token,
      });
      expect(res.status, res.text).toBe(200);
      const id = res.body.data.id;
      expect(res.body.data).toEqual({
        id: expect.stringMatching(/^tws-[A-Za-z0-9]{16}$/),
        type: 'team-workspaces',
        attributes: {
          access: 'write',
          runs: 'apply',
          variables: 'write',
          'state-versions': 'write',
          'sentinel-mocks': 'read',
          'workspace-locking': true,
          'run-tasks': false,
        },
        relationships: {
          team: { data: { id: dev.teamId, type: 'teams' }, links: { related: `/api/v2/teams/${dev.teamId}` } },
          workspace: {
            data: { id: f.web, type: 'workspaces' },
            links: { related: '/api/v2/organizations/acme/workspaces/web' },
          },
        },
        links: { self: `/api/v2/team-workspaces/${id}` },
      });
      expect((await api.get('/api/v2/team-workspaces', { token: f.owner.token })).status).toBe(400);
      const list = await api.get(`/api/v2/team-workspaces?filter%5Bworkspace%5D%5Bid%5D=${f.web}`, {
        token: f.owner.token,
      });
      expect(list.body.data.map((g: any) => g.id)).toEqual([id]);
      const custom = await api.patch(
        `/api/v2/team-workspaces/${id}`,
        {
          data: {
            type: 'team-workspaces',
            attributes: { access: 'custom', runs: 'plan', 'state-versions': 'read-outputs' },
          },
        },
        { token: f.owner.token },
      );
      expect(custom.status, custom.text).toBe(200);
      // Keys the request leaves out keep what `write` implied.
      expect(custom.body.data.attributes).toEqual({
        access: 'custom',
        runs: 'plan',
        variables: 'write',
        'state-versions': 'read-outputs',
        'sentinel-mocks': 'read',
        'workspace-locking': true,
        'run-tasks': false,
      });
      const back = await api.patch(
        `/api/v2/team-workspaces/${id}`,
        { data: { type: 'team-workspaces', attributes: { access: 'read' } } },
        { token: f.owner.token },
      );
      expect(back.body.data.attributes).toMatchObject({
        access: 'read',
        runs: 'read',
        variables: 'read',
        'state-versions': 'read',
      });
      expect((await api.delete(`/api/v2/team-workspaces/${id}`, { token: f.owner.token })).status).toBe(204);
      expect((await api.get(`/api/v2/team-workspaces/${id}`, { token: f.owner.token })).status).toBe(404);
    });

    it('validates: 422 for bad levels and custom keys with a fixed level; 404 for unknown team or workspace', async () => {
      const post = (body: unknown) => api.post('/api/v2/team-workspaces', body, { token: f.owner.token });
      for (const access of ['maintain', 'owner', 7, null]) {
        const res = await post(teamWorkspaceBody(ops.teamId, f.web, { access }));
        expect(res.status, String(access)).toBe(422);
      }
      const mixed = await post(teamWorkspaceBody(ops.teamId, f.web, { access: 'read', 'workspace-locking': true }));
      expect(mixed.status).toBe(422);
      // HCP's wording, one error per custom attribute (go-tfe compares it verbatim), and nothing stored.
      const runs = await post(
        teamWorkspaceBody(ops.teamId, f.web, { access: 'read', runs: 'apply', variables: 'read' }),
      );
      expect(runs.status).toBe(422);
      expect(runs.body.errors).toEqual([
        {
          status: '422',
          title: 'invalid attribute',
          detail: "Runs is read-only when access level is 'read'; use the 'custom' access level to set this attribute.",
          source: { pointer: '/data/attributes/runs' },
        },
        {
          status: '422',
          title: 'invalid attribute',
          detail:
            "Variables is read-only when access level is 'read'; use the 'custom' access level to set this attribute.",
          source: { pointer: '/data/attributes/variables' },
        },
      ]);
      const listed = await api.get(`/api/v2/team-workspaces?filter[workspace][id]=${f.web}`, { token: f.owner.token });
      expect(listed.body.data.filter((g: any) => g.relationships.team.data.id === ops.teamId)).toEqual([]);
      expect(
        (await post(teamWorkspaceBody(ops.teamId, f.web, { access: 'custom', 'workspace-locking': 'yes' }))).status,
      ).toBe(422);
      expect((await post(teamWorkspaceBody('team-AAAAAAAAAAAAAAAA', f.web, { access: 'read' }))).status).toBe(404);
      expect((await post(teamWorkspaceBody(ops.teamId, 'ws-AAAAAAAAAAAAAAAA', { access: 'read' }))).status).toBe(404);
      // A team of another organization is unknown here.
      const stranger = await api.userToken('stranger2');
      await api.createOrg('elsewhere', stranger.token);
      const theirs = (await api.get('/api/v2/organizations/elsewhere/teams', { token: stranger.token })).body.data[0]
        .id;
      expect((await post(teamWorkspaceBody(theirs, f.web, { access: 'read' }))).status).toBe(404);
    });

    it('lets workspace admins grant access; write members get 404; outsiders 404', async () => {
      const admin = await teamMember(f, 'web-admins');
      await grantWorkspace(f, admin.teamId, f.web, 'admin');
      const writer = await teamMember(f, 'web-writers');
      await grantWorkspace(f, writer.teamId, f.web, 'write');
      const granted = await api.post(
        '/api/v2/team-workspaces',
        teamWorkspaceBody(ops.teamId, f.web, { access: 'plan' }),
        { token: admin.token },
      );
      expect(granted.status, granted.text).toBe(200);
      expect(
        (
          await api.post('/api/v2/team-workspaces', teamWorkspaceBody(dev.teamId, f.web, { access: 'plan' }), {
            token: writer.token,
          })
        ).status,
      ).toBe(404);
      const outsider = await teamMember(f, 'outsiders');
      expect((await api.get(`/api/v2/team-workspaces/${granted.body.data.id}`, { token: outsider.token })).status).toBe(
        404,
      );
      expect((await api.get(`/api/v2/team-workspaces/${granted.body.data.id}`, { token: ops.token })).status).toBe(200);
      expect((await api.delete(`/api/v2/team-workspaces/${granted.body.data.id}`, { token: admin.token })).status).toBe(
        204,
      );
    });

    it('goes away with its team or workspace (cascade)', async () => {
      const temp = await teamMember(f, 'temporary');
      const id = await grantWorkspace(f, temp.teamId, f.web, 'read');
      expect((await api.delete(`/api/v2/teams/${temp.teamId}`, { token: f.owner.token })).status).toBe(204);
      expect((await api.get(`/api/v2/team-workspaces/${id}`, { token: f.owner.token })).status).toBe(404);
    });
  });
});

describe('permissions objects and list filtering', () => {
  let api: TestApi;
  let f: AccessFixture;

  beforeAll(async () => {
    api = await TestApi.create();
    f = await accessFixture(api);
    // A second workspace in Beta, which the workspace-level actors below cannot see.
    const other = await api.post(
      '/api/v2/organizations/acme/workspaces',
      {
        data: {
          type: 'workspaces',
          attributes: { name: 'api' },
          relationships: { project: { data: { type: 'projects', id: f.beta } } },
        },
      },
      { token: f.owner.token },
    );
    expect(other.status).toBe(201);
  });
  afterAll(() => api.close());

  const wsPermissions = async (token: string) =>
    (await api.get(`/api/v2/workspaces/${f.web}`, { token })).body.data.attributes.permissions;

  it('a workspace plan member: read and queue plans, nothing else', async () => {
    const m = await teamMember(f, 'planners');
    await grantWorkspace(f, m.teamId, f.web, 'plan');
    expect(await wsPermissions(m.token)).toMatchObject({
      'can-update': false,
      'can-destroy': false,
      'can-queue-run': true,
      'can-queue-apply': false,
      'can-queue-destroy': false,
      'can-read-run': true,
      'can-read-variable': true,
      'can-update-variable': false,
      'can-read-state-versions': true,
      'can-read-state-outputs': true,
      'can-create-state-versions': false,
      'can-lock': false,
      'can-unlock': false,
      'can-force-unlock': false,
      'can-force-delete': false,
      'can-read-settings': true,
    });
    // Lists: only the workspace it can read.
    const list = await api.get('/api/v2/organizations/acme/workspaces', { token: m.token });
    expect(list.body.data.map((w: any) => w.attributes.name)).toEqual(['web']);
    expect(list.body.meta.pagination['total-count']).toBe(1);
    // It cannot read any project: the project list is empty, the organization says it may not create.
    expect((await api.get('/api/v2/organizations/acme/projects', { token: m.token })).body.data).toEqual([]);
    const org = await api.get('/api/v2/organizations/acme', { token: m.token });
    expect(org.body.data.attributes.permissions).toMatchObject({
      'can-update': false,
      'can-create-workspace': false,
      'can-create-project': false,
    });
  });

  it('a custom lock-only member: can lock and unlock, not force-unlock, not create state versions', async () => {
    const m = await teamMember(f, 'lockers');
    await grantWorkspace(f, m.teamId, f.web, 'custom', { 'workspace-locking': true });
    expect(await wsPermissions(m.token)).toMatchObject({
      'can-lock': true,
      'can-unlock': true,
      'can-force-unlock': false,
      'can-update': false,
      'can-queue-run': false,
      'can-read-variable': false,
      'can-read-state-versions': false,
      'can-create-state-versions': false,
    });
  });

  it('state versions: read needs state-versions read (404 for a runs-only custom grant), include=outputs is left out', async () => {
    const m = await teamMember(f, 'runners');
    await grantWorkspace(f, m.teamId, f.web, 'custom', { runs: 'plan' });
    expect((await api.get(`/api/v2/workspaces/${f.web}`, { token: m.token })).status).toBe(200);
    expect((await api.get(`/api/v2/workspaces/${f.web}/state-versions`, { token: m.token })).status).toBe(404);
    expect((await api.get(`/api/v2/workspaces/${f.web}/current-state-version`, { token: m.token })).status).toBe(404);
    const withOutputs = await api.get(`/api/v2/workspaces/${f.web}?include=outputs,project`, { token: m.token });
    expect(withOutputs.status).toBe(200);
    expect(withOutputs.body.included ?? []).toEqual([]);
    const reader = await teamMember(f, 'state-readers');
    await grantWorkspace(f, reader.teamId, f.web, 'read');
    expect((await api.get(`/api/v2/workspaces/${f.web}/state-versions`, { token: reader.token })).status).toBe(200);
  });

  it('a workspace admin: everything on the workspace but force delete, until the organization allows it', async () => {
    const m = await teamMember(f, 'admins');
    await grantWorkspace(f, m.teamId, f.web, 'admin');
    expect(await wsPermissions(m.token)).toMatchObject({
      'can-update': true,
      'can-destroy': true,
      'can-queue-apply': true,
      'can-lock': true,
      'can-force-unlock': true,
      'can-create-state-versions': true,
      'can-force-delete': false,
    });
    await api.patch(
      '/api/v2/organizations/acme',
      { data: { type: 'organizations', attributes: { 'allow-force-delete-workspaces': true } } },
      { token: f.owner.token },
    );
    expect((await wsPermissions(m.token))['can-force-delete']).toBe(true);
    await api.patch(
      '/api/v2/organizations/acme',
      { data: { type: 'organizations', attributes: { 'allow-force-delete-workspaces': false } } },
      { token: f.owner.token },
    );
  });

  it('a project admin: its project and its workspaces, with can-create-workspace only there; list filters follow', async () => {
    const m = await teamMember(f, 'alpha-admins');
    await grantProject(f, m.teamId, f.alpha, 'admin');
    const projects = await api.get('/api/v2/organizations/acme/projects', { token: m.token });
    expect(projects.body.data.map((p: any) => p.attributes.name)).toEqual(['Alpha']);
    expect(projects.body.data[0].attributes.permissions).toMatchObject({
      'can-read': true,
      'can-update': true,
      'can-destroy': true,
      'can-create-workspace': true,
      'can-move-workspace': true,
      'can-manage-teams': true,
    });
    const workspaces = await api.get('/api/v2/organizations/acme/workspaces', { token: m.token });
    expect(workspaces.body.data.map((w: any) => w.attributes.name)).toEqual(['web']);
    expect(workspaces.body.data[0].attributes.permissions).toMatchObject({
      'can-update': true,
      'can-force-unlock': true,
      'can-force-delete': false,
    });

    // The owner sees every project; filters by permission keep only the caller's.
    const all = await api.get('/api/v2/organizations/acme/projects', { token: f.owner.token });
    expect(all.body.data.map((p: any) => p.attributes.name).sort()).toEqual(['Alpha', 'Beta', 'Default Project']);
    const create = await api.get(
      '/api/v2/organizations/acme/projects?filter%5Bpermissions%5D%5Bcreate-workspace%5D=true',
      { token: m.token },
    );
    expect(create.body.data.map((p: any) => p.attributes.name)).toEqual(['Alpha']);
  });

  it('a project read member sees the project but may not change it; filters keep nothing', async () => {
    const m = await teamMember(f, 'beta-readers');
    await grantProject(f, m.teamId, f.beta, 'read');
    const p = await api.get(`/api/v2/projects/${f.beta}`, { token: m.token });
    expect(p.body.data.attributes.permissions).toMatchObject({
      'can-read': true,
      'can-update': false,
      'can-destroy': false,
      'can-create-workspace': false,
      'can-manage-teams': false,
    });
    const list = await api.get('/api/v2/organizations/acme/workspaces', { token: m.token });
    expect(list.body.data.map((w: any) => w.attributes.name)).toEqual(['api']);
    for (const filter of ['update', 'create-workspace']) {
      const res = await api.get(`/api/v2/organizations/acme/projects?filter%5Bpermissions%5D%5B${filter}%5D=true`, {
        token: m.token,
      });
      expect(res.body.data, filter).toEqual([]);
    }
  });

  it('a write member at project level and workspace level: the strongest access wins', async () => {
    const m = await teamMember(f, 'mixed');
    await grantProject(f, m.teamId, f.alpha, 'read');
    await grantWorkspace(f, m.teamId, f.web, 'write');
    expect(await wsPermissions(m.token)).toMatchObject({
      'can-lock': true,
      'can-queue-apply': true,
      'can-update': false,
    });
  });

  it('the owner and the organization token: everything', async () => {
    expect(await wsPermissions(f.owner.token)).toMatchObject({
      'can-update': true,
      'can-force-delete': true,
      'can-force-unlock': true,
    });
    const org = await api.get('/api/v2/organizations/acme', { token: f.owner.token });
    expect(org.body.data.attributes.permissions).toMatchObject({
      'can-update': true,
      'can-create-workspace': true,
      'can-create-project': true,
    });
  });
});
