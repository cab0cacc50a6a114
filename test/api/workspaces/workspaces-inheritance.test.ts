import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_SITE_ADMIN } from '../../../src/domain/permissions/actor.js';
import { toWorkspace } from '../../../src/services/workspaces/workspaces-read.js';
import { TestApi } from '../../helpers/api.js';
import { createAgentPool, createWorkspace, defaultProjectId, insertProject, wsBody } from '../../helpers/workspaces.js';

describe('inheritance: execution mode (workspace, then project, then organization)', () => {
  let api: TestApi;
  const get = async (id: string) => (await api.get(`/api/v2/workspaces/${id}`)).body.data.attributes;

  beforeAll(async () => {
    api = await TestApi.create();
    await api.post('/api/v2/organizations', {
      data: {
        type: 'organizations',
        attributes: { name: 'acme', email: 'a@example.com', 'default-execution-mode': 'local' },
      },
    });
  });
  afterAll(() => api.close());

  it("a workspace without its own mode takes its project's; the default project follows the organization's", async () => {
    const ws = (await createWorkspace(api, 'acme', { name: 'plain' })).body.data;
    expect(ws.attributes).toMatchObject({
      'execution-mode': 'local',
      operations: false,
      'setting-overwrites': { 'execution-mode': false, 'agent-pool': false },
    });
    const project = await insertProject(api, 'acme', 'Remote one', { executionMode: 'remote' });
    const inProject = (
      await createWorkspace(
        api,
        'acme',
        { name: 'in-project' },
        { project: { data: { type: 'projects', id: project } } },
      )
    ).body.data;
    expect(inProject.attributes['execution-mode']).toBe('remote');
    // A change of the project's mode reaches workspaces that inherit it.
    await api.store.db
      .updateTable('projects')
      .set({ default_execution_mode: 'local' })
      .where('id', '=', project)
      .execute();
    expect((await get(inProject.id))['execution-mode']).toBe('local');
  });

  it("the project's own mode wins over the organization's; a project without one follows the organization live", async () => {
    const ws = (await createWorkspace(api, 'acme', { name: 'org-fallback' })).body.data;
    await api.patch('/api/v2/organizations/acme', {
      data: { type: 'organizations', attributes: { 'default-execution-mode': 'remote' } },
    });
    // The default project sets no mode of its own: the organization's change reaches the workspace.
    expect((await get(ws.id))['execution-mode']).toBe('remote');
    expect((await get(ws.id))['setting-overwrites']).toEqual({ 'execution-mode': false, 'agent-pool': false });
    await api.patch('/api/v2/organizations/acme', {
      data: { type: 'organizations', attributes: { 'default-execution-mode': 'local' } },
    });
    expect((await get(ws.id))['execution-mode']).toBe('local');
    const row = await api.store.db
      .selectFrom('workspaces')
      .selectAll()
      .where('id', '=', ws.id)
      .executeTakeFirstOrThrow();
    const ctx = TestApi.ctx(api.store, LOCAL_SITE_ADMIN);
    const facts = { organizationId: row.organization_id, teams: [] };
    const base = {
      ...row,
      org_name: 'acme',
      org_allow_force_delete: 0,
      org_assessments_enforced: 0,
      project_auto_destroy: null,
      org_execution_mode: 'agent',
      org_agent_pool_id: 'apool-org',
      project_execution_mode: 'remote',
      project_agent_pool_id: null,
    };
    const inheritsAll = toWorkspace(ctx, { ...base, project_execution_overridden: 0 }, facts, []);
    expect([inheritsAll.executionMode, inheritsAll.agentPoolId]).toEqual(['agent', 'apool-org']);
    const fromProject = toWorkspace(ctx, { ...base, project_execution_overridden: 1 }, facts, []);
    expect([fromProject.executionMode, fromProject.agentPoolId]).toEqual(['remote', null]);
    const own = toWorkspace(ctx, { ...base, execution_mode: 'local', project_execution_overridden: 1 }, facts, []);
    expect([own.executionMode, own.executionModeOverridden]).toEqual(['local', true]);
  });

  it('an own mode wins and is reported in setting-overwrites; false there returns to inheriting', async () => {
    const ws = (await createWorkspace(api, 'acme', { name: 'own', 'execution-mode': 'remote' })).body.data;
    expect(ws.attributes).toMatchObject({
      'execution-mode': 'remote',
      'setting-overwrites': { 'execution-mode': true, 'agent-pool': true },
    });
    const back = await api.patch(
      `/api/v2/workspaces/${ws.id}`,
      wsBody({ 'setting-overwrites': { 'execution-mode': false, 'agent-pool': false } }),
    );
    expect(back.status).toBe(200);
    expect(back.body.data.attributes).toMatchObject({
      'execution-mode': 'local',
      'setting-overwrites': { 'execution-mode': false, 'agent-pool': false },
    });
  });

  it('agent mode keeps its pool across updates and drops it when the mode changes', async () => {
    const pool = await createAgentPool(api, 'acme', 'p1');
    const pool2 = await createAgentPool(api, 'acme', 'p2');
    const ws = (
      await createWorkspace(api, 'acme', { name: 'agented', 'execution-mode': 'agent', 'agent-pool-id': pool })
    ).body.data;
    expect(ws.relationships['agent-pool'].data).toEqual({ id: pool, type: 'agent-pools' });
    const same = await api.patch(`/api/v2/workspaces/${ws.id}`, wsBody({ description: 'still agent' }));
    expect(same.body.data.relationships['agent-pool'].data.id).toBe(pool);
    const again = await api.patch(`/api/v2/workspaces/${ws.id}`, wsBody({ 'execution-mode': 'agent' }));
    expect(again.body.data.relationships['agent-pool'].data.id).toBe(pool);
    const other = await api.patch(`/api/v2/workspaces/${ws.id}`, wsBody({ 'agent-pool-id': pool2 }));
    expect(other.body.data.relationships['agent-pool'].data.id).toBe(pool2);
    const remote = await api.patch(`/api/v2/workspaces/${ws.id}`, wsBody({ 'execution-mode': 'remote' }));
    expect(remote.body.data.attributes['execution-mode']).toBe('remote');
    expect(remote.body.data.relationships['agent-pool']).toEqual({ data: null });
  });
});

describe('inheritance: auto-destroy-activity-duration', () => {
  let api: TestApi;
  let project: string;
  const get = async (id: string) => (await api.get(`/api/v2/workspaces/${id}`)).body.data.attributes;
  const setProject = (value: string | null) =>
    api.store.db
      .updateTable('projects')
      .set({ auto_destroy_activity_duration: value })
      .where('id', '=', project)
      .execute();

  beforeAll(async () => {
    api = await TestApi.create();
    await api.createOrg('acme');
    project = await insertProject(api, 'acme', 'Ephemeral', { autoDestroy: '3d' });
  });
  afterAll(() => api.close());

  it('new workspaces inherit the project value; a project change reaches non-overriding workspaces only', async () => {
    const rel = { project: { data: { type: 'projects', id: project } } };
    const inheriting = (await createWorkspace(api, 'acme', { name: 'inherits' }, rel)).body.data;
    const overriding = (
      await createWorkspace(api, 'acme', { name: 'overrides', 'auto-destroy-activity-duration': '12h' }, rel)
    ).body.data;
    const optedOut = (
      await createWorkspace(api, 'acme', { name: 'opted-out', 'auto-destroy-activity-duration': null }, rel)
    ).body.data;
    expect(inheriting.attributes).toMatchObject({
      'auto-destroy-activity-duration': '3d',
      'inherits-project-auto-destroy': true,
    });
    expect(overriding.attributes).toMatchObject({
      'auto-destroy-activity-duration': '12h',
      'inherits-project-auto-destroy': false,
    });
    expect(optedOut.attributes).toMatchObject({
      'auto-destroy-activity-duration': null,
      'inherits-project-auto-destroy': false,
    });

    await setProject('30d');
    expect(await get(inheriting.id)).toMatchObject({
      'auto-destroy-activity-duration': '30d',
      'inherits-project-auto-destroy': true,
    });
    expect(await get(overriding.id)).toMatchObject({ 'auto-destroy-activity-duration': '12h' });
    expect(await get(optedOut.id)).toMatchObject({ 'auto-destroy-activity-duration': null });
    await setProject(null);
    expect((await get(inheriting.id))['auto-destroy-activity-duration']).toBeNull();
    await setProject('30d');
  });

  it('an update sets an override; inherits-project-auto-destroy true returns to the project value', async () => {
    const ws = (
      await createWorkspace(api, 'acme', { name: 'toggle' }, { project: { data: { type: 'projects', id: project } } })
    ).body.data;
    const own = await api.patch(`/api/v2/workspaces/${ws.id}`, wsBody({ 'auto-destroy-activity-duration': '1h' }));
    expect(own.body.data.attributes).toMatchObject({
      'auto-destroy-activity-duration': '1h',
      'inherits-project-auto-destroy': false,
    });
    await setProject('9d');
    expect((await get(ws.id))['auto-destroy-activity-duration']).toBe('1h');
    const back = await api.patch(`/api/v2/workspaces/${ws.id}`, wsBody({ 'inherits-project-auto-destroy': true }));
    expect(back.body.data.attributes).toMatchObject({
      'auto-destroy-activity-duration': '9d',
      'inherits-project-auto-destroy': true,
    });
    const frozen = await api.patch(`/api/v2/workspaces/${ws.id}`, wsBody({ 'inherits-project-auto-destroy': false }));
    expect(frozen.body.data.attributes).toMatchObject({
      'auto-destroy-activity-duration': '9d',
      'inherits-project-auto-destroy': false,
    });
    await setProject('2d');
    expect((await get(ws.id))['auto-destroy-activity-duration']).toBe('9d');
    const conflict = await api.patch(
      `/api/v2/workspaces/${ws.id}`,
      wsBody({ 'auto-destroy-activity-duration': '1h', 'inherits-project-auto-destroy': true }),
    );
    expect(conflict.status).toBe(422);
    expect(conflict.body.errors[0].source.pointer).toBe('/data/attributes/inherits-project-auto-destroy');
  });

  it('moving a workspace to another project changes what it inherits', async () => {
    const ws = (await createWorkspace(api, 'acme', { name: 'mover' })).body.data;
    expect(ws.attributes['auto-destroy-activity-duration']).toBeNull();
    const moved = await api.patch(`/api/v2/workspaces/${ws.id}`, {
      data: { type: 'workspaces', relationships: { project: { data: { type: 'projects', id: project } } } },
    });
    expect(moved.body.data.attributes['auto-destroy-activity-duration']).toBe('2d');
    expect(moved.body.data.relationships.project.data.id).toBe(project);
    const home = await defaultProjectId(api, 'acme');
    const back = await api.patch(`/api/v2/workspaces/${ws.id}`, {
      data: { type: 'workspaces', relationships: { project: { data: { type: 'projects', id: home } } } },
    });
    expect(back.body.data.attributes['auto-destroy-activity-duration']).toBeNull();
  });
});
