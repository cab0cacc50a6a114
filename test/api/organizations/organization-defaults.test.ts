import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { createAgentPool, createWorkspace, teamUser, wsBody } from '../../helpers/workspaces.js';

const orgBody = (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) => ({
  data: { type: 'organizations', attributes, ...(relationships ? { relationships } : {}) },
});
const poolRel = (id: string | null) => ({ 'default-agent-pool': { data: id ? { type: 'agent-pools', id } : null } });

describe('organizations: the document go-tfe reads', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.create();
  });
  afterAll(() => api.close());

  it('create and read answer the same document, with the attributes, permissions and relationships', async () => {
    const created = await api.createOrg('docs');
    expect(created.status).toBe(201);
    const read = await api.get('/api/v2/organizations/docs');
    expect(read.body.data).toEqual(created.body.data);
    const org = read.body.data;
    expect(org.attributes).toMatchObject({
      'default-execution-mode': 'remote',
      'send-passing-statuses-for-untriggered-speculative-plans': false,
      'aggregated-commit-status-enabled': false,
      'speculative-plan-management-enabled': true,
      'is-unified': false,
      'trial-expires-at': null,
      'remaining-testable-count': 5,
      'owners-team-saml-role-id': null,
    });
    expect(org.attributes.permissions).toEqual({
      'can-update': true,
      'can-destroy': true,
      'can-create-workspace': true,
      'can-create-project': true,
      'can-manage-tokens': true,
      'can-create-team': true,
      'can-create-workspace-migration': true,
      'can-deploy-no-code-modules': true,
      'can-manage-no-code-modules': true,
      'can-manage-auditing': true,
      'can-manage-run-tasks': true,
      'can-traverse': true,
      'can-update-agent-pools': true,
      'can-update-api-token': true,
      'can-update-oauth': true,
      'can-update-sentinel': true,
    });
    expect(org.relationships['default-agent-pool']).toEqual({ data: null });
    expect(org.relationships['entitlement-set']).toEqual({
      data: { id: org.attributes['external-id'], type: 'entitlement-sets' },
      links: { related: '/api/v2/organizations/docs/entitlement-set' },
    });
  });

  it('computes the permissions for the caller: a member who manages workspaces may not manage run tasks', async () => {
    await api.createOrg('perms');
    const member = await teamUser(api, 'perms', 'ws-manager', { manage_workspaces: 1 });
    const res = await api.get('/api/v2/organizations/perms', { token: member });
    expect(res.body.data.attributes.permissions).toMatchObject({
      'can-update': false,
      'can-destroy': false,
      'can-create-workspace': true,
      'can-deploy-no-code-modules': true,
      'can-manage-no-code-modules': false,
      'can-manage-run-tasks': false,
      'can-create-team': false,
      'can-traverse': true,
    });
  });

  it('lists organizations matching q by name or by email', async () => {
    await api.post('/api/v2/organizations', orgBody({ name: 'by-mail', email: 'platform@unusual.example' }));
    const byEmail = await api.get('/api/v2/organizations?q=unusual.example');
    expect(byEmail.body.data.map((o: any) => o.id)).toEqual(['by-mail']);
    const byName = await api.get('/api/v2/organizations?q=BY-MA');
    expect(byName.body.data.map((o: any) => o.id)).toEqual(['by-mail']);
  });

  it('stores the VCS status settings it is sent', async () => {
    await api.createOrg('vcs');
    const res = await api.patch(
      '/api/v2/organizations/vcs',
      orgBody({
        'send-passing-statuses-for-untriggered-speculative-plans': true,
        'aggregated-commit-status-enabled': true,
        'speculative-plan-management-enabled': false,
      }),
    );
    expect(res.status).toBe(200);
    const expected = {
      'send-passing-statuses-for-untriggered-speculative-plans': true,
      'aggregated-commit-status-enabled': true,
      'speculative-plan-management-enabled': false,
    };
    expect(res.body.data.attributes).toMatchObject(expected);
    expect((await api.get('/api/v2/organizations/vcs')).body.data.attributes).toMatchObject(expected);
    const bad = await api.patch('/api/v2/organizations/vcs', orgBody({ 'aggregated-commit-status-enabled': 'yes' }));
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].source.pointer).toBe('/data/attributes/aggregated-commit-status-enabled');
  });

  it('serves the entitlement set of what berth does (false for what it does not), without operations, to members, 404 to others', async () => {
    await api.createOrg('ent');
    const res = await api.get('/api/v2/organizations/ent/entitlement-set');
    expect(res.status).toBe(200);
    const org = (await api.get('/api/v2/organizations/ent')).body.data;
    expect(res.body.data).toMatchObject({ id: org.attributes['external-id'], type: 'entitlement-sets' });
    // Every key, so that a feature berth lacks can never be said true again unnoticed: clients wait
    // for the cost estimates and policy checks these promise (go-tfe's cost-estimate test, 120 s).
    expect(res.body.data.attributes).toEqual({
      agents: true,
      'audit-logging': true,
      'configuration-designer': false,
      'cost-estimation': false,
      'global-run-tasks': false,
      'module-tests-generation': false,
      // berth executes no runs: the Terraform CLI must run its operations locally.
      operations: false,
      'policy-enforcement': false,
      // The module registry (services/registry/modules.ts): nothing waits on it.
      'private-module-registry': true,
      'private-policy-agents': false,
      'private-run-tasks': false,
      'private-vcs': false,
      'run-tasks': false,
      'self-serve-billing': false,
      sentinel: false,
      sso: false,
      'state-storage': true,
      teams: true,
      'vcs-integrations': false,
      'waypoint-actions': false,
      'waypoint-templates-and-addons': false,
    });
    expect((await api.get('/api/v2/organizations/nowhere/entitlement-set')).status).toBe(404);
    const outsider = await teamUser(api, 'docs', 'outsider', { is_owners: 1 });
    expect((await api.get('/api/v2/organizations/ent/entitlement-set', { token: outsider })).status).toBe(404);
  });
});

describe('organizations: default execution mode and default agent pool', () => {
  let api: TestApi;
  let pool: string;
  beforeAll(async () => {
    api = await TestApi.create();
    await api.createOrg('acme');
    await api.createOrg('other');
    pool = await createAgentPool(api, 'acme', 'builders');
  });
  afterAll(() => api.close());

  const org = async () => (await api.get('/api/v2/organizations/acme')).body.data;
  const patchOrg = (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) =>
    api.patch('/api/v2/organizations/acme', orgBody(attributes, relationships));

  it('refuses a pool without the agent mode, agent without a pool, and a pool of another organization; nothing changes', async () => {
    const before = await org();
    const cases: [Record<string, unknown>, Record<string, unknown> | undefined, string, string][] = [
      [
        {},
        poolRel(pool),
        '/data/relationships/default-agent-pool',
        "Default agent pool must not be specified unless using 'agent' execution mode",
      ],
      [
        { 'default-execution-mode': 'agent' },
        undefined,
        '/data/relationships/default-agent-pool',
        "Default agent pool must be specified when using 'agent' execution mode",
      ],
      [
        { 'default-execution-mode': 'agent' },
        poolRel(await createAgentPool(api, 'other', 'theirs')),
        '/data/relationships/default-agent-pool/data/id',
        'not found in this organization',
      ],
    ];
    for (const [attributes, relationships, pointer, detail] of cases) {
      const res = await patchOrg(attributes, relationships);
      expect(res.status, res.text).toBe(422);
      expect(res.body.errors[0].source.pointer).toBe(pointer);
      expect(res.body.errors[0].detail).toContain(detail);
      expect(await org()).toEqual(before);
    }
    const typo = await patchOrg(
      { 'default-execution-mode': 'agent' },
      { 'default-agent-pool': { data: { type: 'pools', id: pool } } },
    );
    expect(typo.status).toBe(422);
    expect(typo.body.errors[0].source.pointer).toBe('/data/relationships/default-agent-pool/data/type');
  });

  it('sets agent with a pool, renders the relationship, and drops the pool when the mode changes', async () => {
    const res = await patchOrg({ 'default-execution-mode': 'agent' }, poolRel(pool));
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.attributes['default-execution-mode']).toBe('agent');
    expect(res.body.data.relationships['default-agent-pool']).toEqual({
      data: { id: pool, type: 'agent-pools' },
      links: { related: `/api/v2/agent-pools/${pool}` },
    });
    expect((await org()).relationships['default-agent-pool'].data.id).toBe(pool);
    const local = await patchOrg({ 'default-execution-mode': 'local' });
    expect(local.body.data.attributes['default-execution-mode']).toBe('local');
    expect(local.body.data.relationships['default-agent-pool']).toEqual({ data: null });
  });

  it('is inherited live by workspaces that do not set their own mode, pool included', async () => {
    await patchOrg({ 'default-execution-mode': 'remote' });
    const inheriting = (
      await createWorkspace(api, 'acme', {
        name: 'inheriting',
        'setting-overwrites': { 'execution-mode': false, 'agent-pool': false },
      })
    ).body.data;
    const own = (await createWorkspace(api, 'acme', { name: 'own', 'execution-mode': 'local' })).body.data;
    expect(inheriting.attributes['execution-mode']).toBe('remote');

    expect((await patchOrg({ 'default-execution-mode': 'agent' }, poolRel(pool))).status).toBe(200);
    const read = (await api.get(`/api/v2/workspaces/${inheriting.id}`)).body.data;
    expect(read.attributes).toMatchObject({
      'execution-mode': 'agent',
      operations: true,
      'setting-overwrites': { 'execution-mode': false, 'agent-pool': false },
    });
    expect(read.relationships['agent-pool'].data).toEqual({ id: pool, type: 'agent-pools' });
    // The list shows the same effective values.
    const listed = (await api.get('/api/v2/organizations/acme/workspaces?search[name]=inheriting')).body.data[0];
    expect(listed).toEqual(read);
    expect((await api.get(`/api/v2/workspaces/${own.id}`)).body.data.attributes['execution-mode']).toBe('local');

    // The pool counts the inheriting workspace among those that run on it, and cannot be deleted.
    const poolDoc = (await api.get(`/api/v2/agent-pools/${pool}`)).body.data;
    expect(poolDoc.relationships.workspaces.data).toEqual([{ id: inheriting.id, type: 'workspaces' }]);
    expect((await api.delete(`/api/v2/agent-pools/${pool}`)).status).toBe(409);

    // Another pool as the default: every inheriting workspace follows at once.
    const second = await createAgentPool(api, 'acme', 'second');
    await patchOrg({}, poolRel(second));
    expect((await api.get(`/api/v2/workspaces/${inheriting.id}`)).body.data.relationships['agent-pool'].data.id).toBe(
      second,
    );
    await patchOrg({ 'default-execution-mode': 'local' });
    const after = (await api.get(`/api/v2/workspaces/${inheriting.id}`)).body.data;
    expect(after.attributes['execution-mode']).toBe('local');
    expect(after.relationships['agent-pool']).toEqual({ data: null });
  });

  it('a workspace returning to inheriting takes the current default', async () => {
    await patchOrg({ 'default-execution-mode': 'agent' }, poolRel(pool));
    const ws = (await createWorkspace(api, 'acme', { name: 'returns', 'execution-mode': 'remote' })).body.data;
    const back = await api.patch(
      `/api/v2/workspaces/${ws.id}`,
      wsBody({ 'setting-overwrites': { 'execution-mode': false, 'agent-pool': false } }),
    );
    expect(back.body.data.attributes['execution-mode']).toBe('agent');
    expect(back.body.data.relationships['agent-pool'].data.id).toBe(pool);
    await patchOrg({ 'default-execution-mode': 'remote' });
  });

  it('refuses to create an organization with the agent default (it has no pool yet)', async () => {
    const res = await api.post(
      '/api/v2/organizations',
      orgBody({ name: 'agented', email: 'a@example.com', 'default-execution-mode': 'agent' }),
    );
    expect(res.status).toBe(422);
    expect(res.body.errors[0].source.pointer).toBe('/data/relationships/default-agent-pool');
    expect((await api.get('/api/v2/organizations/agented')).status).toBe(404);
  });
});

describe('workspaces: run tasks permission and old engine versions', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.create();
    await api.createOrg('acme');
  });
  afterAll(() => api.close());

  it('computes can-manage-run-tasks from the caller: owners yes, readers no', async () => {
    const ws = (await createWorkspace(api, 'acme', { name: 'tasks' })).body.data;
    expect(ws.attributes.permissions['can-manage-run-tasks']).toBe(true);
    const reader = await teamUser(api, 'acme', 'reader', { read_workspaces: 1 });
    const asReader = await api.get(`/api/v2/workspaces/${ws.id}`, { token: reader });
    expect(asReader.body.data.attributes.permissions['can-manage-run-tasks']).toBe(false);
  });

  it('accepts engine versions of the 0.1 to 0.10 lines (go-tfe sets 0.10.0), not beyond their releases', async () => {
    const ws = (await createWorkspace(api, 'acme', { name: 'old-engine' })).body.data;
    for (const version of ['0.10.0', '0.10.8', '0.9.11', '0.6.16', '0.1.0']) {
      const res = await api.patch(`/api/v2/workspaces/${ws.id}`, wsBody({ 'terraform-version': version }));
      expect(res.status, version).toBe(200);
      expect(res.body.data.attributes['terraform-version']).toBe(version);
    }
    for (const version of ['0.10.9', '0.0.1']) {
      const res = await api.patch(`/api/v2/workspaces/${ws.id}`, wsBody({ 'terraform-version': version }));
      expect(res.status, version).toBe(422);
    }
  });
});

describe('projects: their own default execution mode, between workspaces and the organization', () => {
  let api: TestApi;
  let pool: string;
  const projectBody = (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) => ({
    data: { type: 'projects', attributes, ...(relationships ? { relationships } : {}) },
  });
  beforeAll(async () => {
    api = await TestApi.create();
    await api.createOrg('acme');
    await api.createOrg('other');
    pool = await createAgentPool(api, 'acme', 'builders');
  });
  afterAll(() => api.close());

  it('a new project inherits the organization live; setting its own mode takes over for its workspaces', async () => {
    const created = await api.post('/api/v2/organizations/acme/projects', projectBody({ name: 'Platform' }));
    expect(created.status).toBe(201);
    const project = created.body.data;
    expect(project.attributes).toMatchObject({
      'default-execution-mode': 'remote',
      'setting-overwrites': { 'default-execution-mode': false, 'default-agent-pool': false },
    });
    expect(project.relationships['default-agent-pool']).toEqual({ data: null });
    const rel = { project: { data: { type: 'projects', id: project.id } } };
    const ws = (await createWorkspace(api, 'acme', { name: 'in-platform' }, rel)).body.data;

    await api.patch('/api/v2/organizations/acme', orgBody({ 'default-execution-mode': 'local' }));
    expect((await api.get(`/api/v2/projects/${project.id}`)).body.data.attributes['default-execution-mode']).toBe(
      'local',
    );
    expect((await api.get(`/api/v2/workspaces/${ws.id}`)).body.data.attributes['execution-mode']).toBe('local');

    // go-tfe's spelling: default-execution-mode with default-agent-pool-id.
    const own = await api.patch(
      `/api/v2/projects/${project.id}`,
      projectBody({ 'default-execution-mode': 'agent', 'default-agent-pool-id': pool }),
    );
    expect(own.status, own.text).toBe(200);
    expect(own.body.data.attributes).toMatchObject({
      'default-execution-mode': 'agent',
      'setting-overwrites': { 'default-execution-mode': true, 'default-agent-pool': true },
    });
    expect(own.body.data.relationships['default-agent-pool'].data).toEqual({ id: pool, type: 'agent-pools' });
    const wsNow = (await api.get(`/api/v2/workspaces/${ws.id}`)).body.data;
    expect(wsNow.attributes['execution-mode']).toBe('agent');
    expect(wsNow.relationships['agent-pool'].data.id).toBe(pool);
    // The organization's later changes no longer reach it.
    await api.patch('/api/v2/organizations/acme', orgBody({ 'default-execution-mode': 'remote' }));
    expect((await api.get(`/api/v2/workspaces/${ws.id}`)).body.data.attributes['execution-mode']).toBe('agent');
    // Its pool is in use: deleting it is a 409.
    expect((await api.delete(`/api/v2/agent-pools/${pool}`)).status).toBe(409);

    // Back to inheriting.
    const back = await api.patch(
      `/api/v2/projects/${project.id}`,
      projectBody({ 'setting-overwrites': { 'default-execution-mode': false, 'default-agent-pool': false } }),
    );
    expect(back.body.data.attributes['default-execution-mode']).toBe('remote');
    expect(back.body.data.relationships['default-agent-pool']).toEqual({ data: null });
    expect((await api.get(`/api/v2/workspaces/${ws.id}`)).body.data.attributes['execution-mode']).toBe('remote');
  });

  it('accepts the documentation spellings (default-agent-pool attribute or relationship)', async () => {
    const a = await api.post(
      '/api/v2/organizations/acme/projects',
      projectBody({ name: 'Docs spelling', 'default-execution-mode': 'agent', 'default-agent-pool': pool }),
    );
    expect(a.status, a.text).toBe(201);
    expect(a.body.data.relationships['default-agent-pool'].data.id).toBe(pool);
    const b = await api.post(
      '/api/v2/organizations/acme/projects',
      projectBody(
        { name: 'Relationship', 'default-execution-mode': 'agent' },
        { 'default-agent-pool': { data: { type: 'agent-pools', id: pool } } },
      ),
    );
    expect(b.status, b.text).toBe(201);
    expect(b.body.data.attributes['setting-overwrites']).toEqual({
      'default-execution-mode': true,
      'default-agent-pool': true,
    });
  });

  it('validates: pool rules, setting-overwrites rules, pools of other organizations; nothing is stored', async () => {
    const theirs = await createAgentPool(api, 'other', 'theirs');
    const count = async () =>
      (await api.get('/api/v2/organizations/acme/projects')).body.meta.pagination['total-count'];
    const before = await count();
    const cases: [Record<string, unknown>, string][] = [
      [{ name: 'Bad 1', 'default-execution-mode': 'agent' }, '/data/attributes/default-agent-pool-id'],
      [
        { name: 'Bad 2', 'default-execution-mode': 'remote', 'default-agent-pool-id': pool },
        '/data/attributes/default-agent-pool-id',
      ],
      [
        { name: 'Bad 3', 'default-execution-mode': 'agent', 'default-agent-pool-id': theirs },
        '/data/attributes/default-agent-pool-id',
      ],
      [
        { name: 'Bad 4', 'setting-overwrites': { 'default-execution-mode': true } },
        '/data/attributes/default-execution-mode',
      ],
      [
        { name: 'Bad 5', 'default-execution-mode': 'local', 'setting-overwrites': { 'default-execution-mode': false } },
        '/data/attributes/setting-overwrites/default-execution-mode',
      ],
      [
        { name: 'Bad 6', 'setting-overwrites': { 'default-execution-mode': false, 'default-agent-pool': true } },
        '/data/attributes/setting-overwrites',
      ],
      [{ name: 'Bad 7', 'default-execution-mode': 'sometimes' }, '/data/attributes/default-execution-mode'],
    ];
    for (const [attributes, pointer] of cases) {
      const res = await api.post('/api/v2/organizations/acme/projects', projectBody(attributes));
      expect(res.status, JSON.stringify(attributes)).toBe(422);
      expect(
        res.body.errors.map((e: any) => e.source.pointer),
        JSON.stringify(attributes),
      ).toContain(pointer);
    }
    expect(await count()).toBe(before);
  });
});
