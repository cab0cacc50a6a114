import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import {
  bindings,
  createAgentPool,
  createOAuthToken,
  createWorkspace,
  defaultProjectId,
  expect422,
  insertProject,
  storeSnapshot,
  teamUser,
  wsBody,
} from '../../helpers/workspaces.js';

const ISO_MS = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/;
const A = '/data/attributes';

describe('workspaces: create, read, update', () => {
  let api: TestApi;
  const byName = (name: string, org = 'acme') => `/api/v2/organizations/${org}/workspaces/${name}`;
  const byId = (id: string) => `/api/v2/workspaces/${id}`;
  const post = (attributes: Record<string, unknown>, relationships?: Record<string, unknown>) =>
    api.post('/api/v2/organizations/acme/workspaces', wsBody(attributes, relationships));

  beforeAll(async () => {
    api = await TestApi.create();
    expect((await api.createOrg('acme')).status).toBe(201);
    expect((await api.createOrg('other')).status).toBe(201);
  });
  afterAll(() => api.close());

  describe('a fresh workspace', () => {
    let created: any;
    beforeAll(async () => {
      created = (await createWorkspace(api, 'acme', { name: 'fresh' })).body;
    });

    it('has the reference document of a fresh API-created workspace (reference 5.8)', async () => {
      const { data } = created;
      const projectId = await defaultProjectId(api, 'acme');
      expect(data.id).toMatch(/^ws-[A-Za-z0-9]{16}$/);
      expect(data.type).toBe('workspaces');
      expect(data.attributes).toEqual({
        name: 'fresh',
        description: null,
        actions: { 'is-destroyable': true },
        'allow-destroy-plan': true,
        'apply-duration-average': null,
        'auto-apply': false,
        'auto-apply-run-trigger': false,
        'auto-destroy-at': null,
        'auto-destroy-activity-duration': null,
        'auto-destroy-status': null,
        'inherits-project-auto-destroy': true,
        'created-at': expect.stringMatching(ISO_MS),
        'updated-at': expect.stringMatching(ISO_MS),
        environment: 'default',
        'execution-mode': 'remote',
        'file-triggers-enabled': true,
        // Self-hosted: Terraform Enterprise's default-remote-state-access, true (hosted: false).
        'global-remote-state': true,
        'project-remote-state': false,
        'last-assessment-result-at': null,
        'latest-change-at': data.attributes['created-at'],
        locked: false,
        'locked-reason': null,
        'locked-at': null,
        operations: true,
        permissions: {
          'can-update': true,
          'can-destroy': true,
          'can-queue-run': true,
          'can-read-run': true,
          'can-read-variable': true,
          'can-update-variable': true,
          'can-read-state-versions': true,
          'can-read-state-outputs': true,
          'can-create-state-versions': true,
          'can-queue-apply': true,
          'can-lock': true,
          'can-unlock': true,
          'can-force-unlock': true,
          'can-read-settings': true,
          'can-manage-tags': true,
          'can-manage-run-tasks': true,
          'can-force-delete': true,
          'can-manage-assessments': true,
          'can-manage-ephemeral-workspaces': false,
          'can-read-assessment-results': true,
          'can-queue-destroy': true,
        },
        'plan-duration-average': null,
        'policy-check-failures': null,
        'queue-all-runs': false,
        'resource-count': 0,
        'run-failures': null,
        'setting-overwrites': { 'execution-mode': false, 'agent-pool': false },
        source: 'tfe-api',
        'source-name': null,
        'source-url': null,
        'speculative-enabled': true,
        'structured-run-output-enabled': true,
        'tag-names': [],
        'terraform-version': '1.13.3',
        'trigger-patterns': [],
        'trigger-prefixes': [],
        'vcs-repo': null,
        'vcs-repo-identifier': null,
        'working-directory': null,
        'workspace-kpis-runs-count': null,
        'workspace-kpis-run-count': null,
      });
      const rel = data.relationships;
      expect(rel.organization.data).toEqual({ id: 'acme', type: 'organizations' });
      expect(rel.project.data).toEqual({ id: projectId, type: 'projects' });
      for (const name of [
        'current-run',
        'latest-run',
        'locked-by',
        'ssh-key',
        'agent-pool',
        'current-state-version',
        'current-configuration-version',
        'current-assessment-result',
        'readme',
        'data-retention-policy',
      ]) {
        expect(rel[name], name).toEqual({ data: null });
      }
      expect(rel.outputs).toEqual({ data: [] });
      expect(rel.vars).toEqual({ data: [] });
      expect(rel['remote-state-consumers']).toEqual({
        links: { related: `/api/v2/workspaces/${data.id}/relationships/remote-state-consumers` },
      });
      expect(rel['tag-bindings']).toEqual({ links: { related: `/api/v2/workspaces/${data.id}/tag-bindings` } });
      expect(rel['effective-tag-bindings']).toEqual({
        links: { related: `/api/v2/workspaces/${data.id}/effective-tag-bindings` },
      });
      expect(data.links).toEqual({
        self: '/api/v2/organizations/acme/workspaces/fresh',
        'self-html': '/app/acme/workspaces/fresh',
      });
    });

    it('reads back identically by id and by name, and lists identically', async () => {
      const one = await api.get(byId(created.data.id));
      const two = await api.get(byName('fresh'));
      expect(one.status).toBe(200);
      expect(two.status).toBe(200);
      expect(one.headers.get('content-type')).toBe('application/vnd.api+json');
      expect(one.body).toEqual(created);
      expect(two.body).toEqual(created);
      const list = await api.get('/api/v2/organizations/acme/workspaces?search[name]=fresh');
      expect(list.body.data).toEqual([created.data]);
    });

    it('answers 404 for unknown workspaces and organizations in both forms', async () => {
      for (const path of [
        byId('ws-AAAAAAAAAAAAAAAA'),
        byName('nope'),
        byName('fresh', 'no-such-org'),
        byName('fresh', 'other'),
      ]) {
        const res = await api.get(path);
        expect(res.status, path).toBe(404);
        expect(res.body.errors[0]).toMatchObject({ status: '404', title: 'not found' });
      }
    });

    it('hides workspaces from non-members (404) and shows them to readers without write permissions', async () => {
      const stranger = await teamUser(api, 'other', 'stranger', { read_workspaces: 1 });
      expect((await api.get(byId(created.data.id), { token: stranger })).status).toBe(404);
      expect((await api.get(byName('fresh'), { token: stranger })).status).toBe(404);
      const reader = await teamUser(api, 'acme', 'reader', { read_workspaces: 1 });
      const res = await api.get(byId(created.data.id), { token: reader });
      expect(res.status).toBe(200);
      expect(res.body.data.attributes.permissions).toMatchObject({
        'can-update': false,
        'can-destroy': false,
        'can-force-delete': false,
        'can-read-run': true,
      });
      const patch = await api.patch(byId(created.data.id), wsBody({ description: 'x' }), { token: reader });
      expect(patch.status).toBe(404);
      expect(patch.body.errors[0]).toMatchObject({ status: '404', title: 'not found' });
      const create = await api.post('/api/v2/organizations/acme/workspaces', wsBody({ name: 'by-reader' }), {
        token: reader,
      });
      expect(create.status).toBe(404);
    });

    it('accepts every include value of the spec and sideloads organization and project', async () => {
      const all = [
        'current_configuration_version',
        'current_configuration_version.ingress_attributes',
        'current_run',
        'current_run.configuration_version',
        'current_run.configuration_version.ingress_attributes',
        'current_run.plan',
        'locked_by',
        'organization',
        'outputs',
        'project',
        'readme',
        'effective_tag_bindings',
        'current-state-version',
        'current_state_version',
      ];
      const res = await api.get(`${byId(created.data.id)}?include=${all.join(',')}`);
      expect(res.status).toBe(200);
      const types = res.body.included.map((r: any) => `${r.type}:${r.id}`);
      expect(types).toEqual(['organizations:acme', `projects:${created.data.relationships.project.data.id}`]);
      expect(res.body.included[1].attributes).toMatchObject({ name: 'Default Project' });
      const only = await api.get(`${byName('fresh')}?include=project`);
      expect(only.body.included.map((r: any) => r.type)).toEqual(['projects']);
      expect(only.body.data).toEqual(created.data);
    });

    it('answers 400 Invalid include parameter for unknown values', async () => {
      for (const path of [byId(created.data.id), byName('fresh'), '/api/v2/organizations/acme/workspaces']) {
        const res = await api.get(`${path}?include=bogus`);
        expect(res.status).toBe(400);
        expect(res.body.errors[0]).toMatchObject({
          status: '400',
          title: 'bad request',
          detail: 'Invalid include parameter',
        });
      }
    });
  });

  describe('every writable attribute', () => {
    it('stores every attribute on create and returns it', async () => {
      const pool = await createAgentPool(api, 'acme', 'pool-all');
      const token = await createOAuthToken(api, 'acme', 'gitlab_hosted');
      const project = await insertProject(api, 'acme', 'Everything');
      const res = await createWorkspace(
        api,
        'acme',
        {
          name: 'every_thing-1',
          'agent-pool-id': pool,
          'allow-destroy-plan': false,
          'auto-apply': true,
          'auto-apply-run-trigger': true,
          'auto-destroy-at': '2120-01-02T03:04:05Z',
          'auto-destroy-activity-duration': '14d',
          description: 'all of them',
          'execution-mode': 'agent',
          'file-triggers-enabled': false,
          'global-remote-state': true,
          'queue-all-runs': true,
          'source-name': 'my tool',
          'source-url': 'https://tool.example.com',
          'speculative-enabled': false,
          'terraform-version': '~> 1.5.0',
          // Patterns and prefixes are alternatives, and patterns need file triggers (tfe-provider-settings.test.ts).
          'trigger-patterns': [],
          'trigger-prefixes': ['/shared'],
          'working-directory': 'infra/prod',
          'setting-overwrites': { 'execution-mode': true, 'agent-pool': true },
          'vcs-repo': {
            identifier: 'acme/infra',
            'oauth-token-id': token,
            branch: 'main',
            'ingress-submodules': true,
            'tags-regex': '^v\\d+$',
          },
        },
        { project: { data: { type: 'projects', id: project } }, 'tag-bindings': bindings({ env: 'prod', team: '' }) },
      );
      const a = res.body.data.attributes;
      expect(a).toMatchObject({
        name: 'every_thing-1',
        'allow-destroy-plan': false,
        'auto-apply': true,
        'auto-apply-run-trigger': true,
        'auto-destroy-at': '2120-01-02T03:04:05.000Z',
        'auto-destroy-activity-duration': '14d',
        'inherits-project-auto-destroy': false,
        description: 'all of them',
        'execution-mode': 'agent',
        operations: true,
        'file-triggers-enabled': false,
        'global-remote-state': true,
        'queue-all-runs': true,
        'source-name': 'my tool',
        'source-url': 'https://tool.example.com',
        'speculative-enabled': false,
        'terraform-version': '~> 1.5.0',
        'trigger-patterns': [],
        'trigger-prefixes': ['/shared'],
        'working-directory': 'infra/prod',
        'setting-overwrites': { 'execution-mode': true, 'agent-pool': true },
        'vcs-repo-identifier': 'acme/infra',
        'vcs-repo': {
          branch: 'main',
          'display-identifier': 'acme/infra',
          identifier: 'acme/infra',
          'ingress-submodules': true,
          'oauth-token-id': token,
          'github-app-installation-id': null,
          'repository-http-url': 'https://gitlab.com/acme/infra',
          'service-provider': 'gitlab_hosted',
          'tags-regex': '^v\\d+$',
          'webhook-url': null,
        },
      });
      expect(res.body.data.relationships['agent-pool']).toEqual({
        data: { id: pool, type: 'agent-pools' },
        links: { related: `/api/v2/agent-pools/${pool}` },
      });
      expect(res.body.data.relationships.project.data.id).toBe(project);
      const stored = await api.store.db
        .selectFrom('workspace_tag_bindings')
        .select(['key', 'value'])
        .where('workspace_id', '=', res.body.data.id)
        .orderBy('seq')
        .execute();
      expect(stored).toEqual([
        { key: 'env', value: 'prod' },
        { key: 'team', value: '' },
      ]);
      expect((await api.get(byId(res.body.data.id))).body).toEqual(res.body);
    });

    it('keeps omitted attributes on update, changes given ones, and returns the same document as a read', async () => {
      const ws = (
        await createWorkspace(api, 'acme', {
          name: 'keep',
          description: 'd1',
          'auto-apply': true,
          'trigger-prefixes': ['/a'],
        })
      ).body.data;
      const res = await api.patch(byId(ws.id), wsBody({ 'queue-all-runs': true }));
      expect(res.status).toBe(200);
      expect(res.body.data.attributes).toMatchObject({
        description: 'd1',
        'auto-apply': true,
        'trigger-prefixes': ['/a'],
        'queue-all-runs': true,
      });
      expect(res.body.data.attributes['created-at']).toBe(ws.attributes['created-at']);
      expect((await api.get(byId(ws.id))).body).toEqual(res.body);
      const cleared = await api.patch(
        byName('keep'),
        wsBody({ description: null, 'trigger-prefixes': [], 'working-directory': '' }),
      );
      expect(cleared.body.data.attributes).toMatchObject({
        description: null,
        'trigger-prefixes': [],
        'working-directory': null,
        'auto-apply': true,
      });
      const list = await api.get('/api/v2/organizations/acme/workspaces?search[name]=keep');
      expect(list.body.data).toEqual([cleared.body.data]);
    });

    it('ignores source-name and source-url on update (create only)', async () => {
      const ws = (await createWorkspace(api, 'acme', { name: 'src', 'source-name': 'first' })).body.data;
      const res = await api.patch(byId(ws.id), wsBody({ 'source-name': 'second', 'source-url': 'https://x' }));
      expect(res.status).toBe(200);
      expect(res.body.data.attributes).toMatchObject({ 'source-name': 'first', 'source-url': null });
    });

    it('updates through both addressing forms identically', async () => {
      const ws = (await createWorkspace(api, 'acme', { name: 'two-forms' })).body.data;
      const a = await api.patch(byId(ws.id), wsBody({ description: 'same' }));
      const b = await api.patch(byName('two-forms'), wsBody({ description: 'same' }));
      expect(a.status).toBe(200);
      expect(b.status).toBe(200);
      const strip = (d: any) => ({ ...d, attributes: { ...d.attributes, 'updated-at': null } });
      expect(strip(b.body.data)).toEqual(strip(a.body.data));
    });

    it('renames: the new name answers, the old one is 404', async () => {
      const ws = (await createWorkspace(api, 'acme', { name: 'old-name' })).body.data;
      const res = await api.patch(byName('old-name'), wsBody({ name: 'new-name' }));
      expect(res.status).toBe(200);
      expect(res.body.data.links.self).toBe('/api/v2/organizations/acme/workspaces/new-name');
      expect((await api.get(byName('old-name'))).status).toBe(404);
      expect((await api.get(byName('new-name'))).body.data.id).toBe(ws.id);
      expect((await api.patch(byName('old-name'), wsBody({ description: 'x' }))).status).toBe(404);
    });

    it('replaces tag bindings when present, clears them with [], keeps them when absent', async () => {
      const ws = (
        await createWorkspace(api, 'acme', { name: 'tagged-upd' }, { 'tag-bindings': bindings({ a: '1', b: '2' }) })
      ).body.data;
      const read = async () =>
        await api.store.db
          .selectFrom('workspace_tag_bindings')
          .select(['key', 'value'])
          .where('workspace_id', '=', ws.id)
          .orderBy('seq')
          .execute();
      await api.patch(byId(ws.id), wsBody({ description: 'no tags here' }));
      expect(await read()).toEqual([
        { key: 'a', value: '1' },
        { key: 'b', value: '2' },
      ]);
      await api.patch(byId(ws.id), wsBody({}, { 'tag-bindings': bindings({ c: '3' }) }));
      expect(await read()).toEqual([{ key: 'c', value: '3' }]);
      const res = await api.patch(byId(ws.id), {
        data: { type: 'workspaces', relationships: { 'tag-bindings': { data: [] } } },
      });
      expect(res.status).toBe(200);
      expect(await read()).toEqual([]);
    });

    it('reads only type and key/value from go-tfe shaped tag bindings (value omitted when empty)', async () => {
      const res = await post(
        { name: 'gotfe-tags' },
        { 'tag-bindings': { data: [{ type: 'tag-bindings', attributes: { key: 'solo' } }] } },
      );
      expect(res.status).toBe(201);
      const rows = await api.store.db
        .selectFrom('workspace_tag_bindings')
        .select(['key', 'value'])
        .where('workspace_id', '=', res.body.data.id)
        .execute();
      expect(rows).toEqual([{ key: 'solo', value: '' }]);
    });

    it('vcs-repo: partial update keeps the other keys, null removes it', async () => {
      const token = await createOAuthToken(api, 'acme');
      const ws = (
        await createWorkspace(api, 'acme', {
          name: 'vcs',
          'vcs-repo': { identifier: 'acme/app', 'oauth-token-id': token },
        })
      ).body.data;
      expect(ws.attributes['vcs-repo']).toMatchObject({
        identifier: 'acme/app',
        branch: '',
        'oauth-token-id': token,
        'service-provider': 'github',
        'repository-http-url': 'https://github.com/acme/app',
      });
      const upd = await api.patch(byId(ws.id), wsBody({ 'vcs-repo': { branch: 'develop' } }));
      expect(upd.body.data.attributes['vcs-repo']).toMatchObject({
        identifier: 'acme/app',
        branch: 'develop',
        'oauth-token-id': token,
      });
      const app = await api.patch(byId(ws.id), wsBody({ 'vcs-repo': { 'github-app-installation-id': 'ghain-abc' } }));
      expect(app.body.data.attributes['vcs-repo']).toMatchObject({
        'oauth-token-id': null,
        'github-app-installation-id': 'ghain-abc',
        branch: 'develop',
      });
      const removed = await api.patch(byId(ws.id), wsBody({ 'vcs-repo': null }));
      expect(removed.body.data.attributes['vcs-repo']).toBeNull();
      expect(removed.body.data.attributes['vcs-repo-identifier']).toBeNull();
      const bare = await createWorkspace(api, 'acme', { name: 'vcs-later' });
      const added = await api.patch(
        byId(bare.body.data.id),
        wsBody({ 'vcs-repo': { identifier: 'acme/new', 'oauth-token-id': token } }),
      );
      expect(added.body.data.attributes['vcs-repo-identifier']).toBe('acme/new');
    });

    it('stores auto-destroy-at as given and clears it with null; a past time is refused and stores nothing', async () => {
      const ws = (await createWorkspace(api, 'acme', { name: 'ada', 'auto-destroy-at': '2999-12-31T23:59:59.123Z' }))
        .body.data;
      expect(ws.attributes['auto-destroy-at']).toBe('2999-12-31T23:59:59.123Z');
      // Already past: the scheduler's next round would destroy the workspace (issue 46).
      const past = await post({ name: 'past', 'auto-destroy-at': '2020-01-01T00:00:00Z' });
      expect(past.status).toBe(422);
      expect(past.body.errors[0].source.pointer).toBe('/data/attributes/auto-destroy-at');
      expect(past.body.errors[0].detail).toMatch(
        /^Auto destroy at must be in the future: 2020-01-01T00:00:00.000Z has passed/,
      );
      expect((await api.get('/api/v2/organizations/acme/workspaces/past')).status).toBe(404);
      const moved = await api.patch(byId(ws.id), wsBody({ 'auto-destroy-at': '2020-01-01T00:00:00Z' }));
      expect(moved.status).toBe(422);
      expect((await api.get(byId(ws.id))).body.data.attributes['auto-destroy-at']).toBe('2999-12-31T23:59:59.123Z');
      const res = await api.patch(byId(ws.id), wsBody({ 'auto-destroy-at': null }));
      expect(res.body.data.attributes['auto-destroy-at']).toBeNull();
    });

    it('operations (deprecated) sets the execution mode: false is local, true is remote', async () => {
      const local = (await createWorkspace(api, 'acme', { name: 'ops-false', operations: false })).body.data;
      expect(local.attributes).toMatchObject({
        'execution-mode': 'local',
        operations: false,
        'setting-overwrites': { 'execution-mode': true },
      });
      const res = await api.patch(byId(local.id), wsBody({ operations: true }));
      expect(res.body.data.attributes).toMatchObject({ 'execution-mode': 'remote', operations: true });
    });

    it('accepts engine version constraints and known exact versions', async () => {
      for (const [i, version] of ['1.5.7', '~> 1.0.0', '>= 1.2, < 2.0', '0.12.31', '1.6.0-beta1'].entries()) {
        const res = await post({ name: `tfv-${i}`, 'terraform-version': version });
        expect(res.status, version).toBe(201);
        expect(res.body.data.attributes['terraform-version']).toBe(version);
      }
    });
  });

  describe('rules: each a 422 invalid attribute with nothing stored', () => {
    beforeAll(async () => {
      await createWorkspace(api, 'acme', { name: 'Taken' }, { 'tag-bindings': bindings({ keep: 'me' }) });
    });

    it('requires data.type workspaces and data', async () => {
      await expect422(
        api,
        () =>
          api.post('/api/v2/organizations/acme/workspaces', { data: { type: 'projects', attributes: { name: 'x' } } }),
        '/data/type',
      );
      await expect422(api, () => api.post('/api/v2/organizations/acme/workspaces', { nodata: true }), '/data');
      const bad = await api.request('POST', '/api/v2/organizations/acme/workspaces', { raw: '{"data": ' });
      expect(bad.status).toBe(400);
    });

    it('requires a name on create', async () => {
      await expect422(api, () => post({ description: 'nameless' }), `${A}/name`, "Name can't be blank");
    });

    it.each(['has space', 'dots.no', 'slash/no', 'ümlaut', 'x'.repeat(91)])('rejects the name %j', async (name) => {
      await expect422(api, () => post({ name }), `${A}/name`, /^Name is invalid/);
    });

    it('rejects a taken name (case-insensitively) on create and on rename', async () => {
      await expect422(api, () => post({ name: 'Taken' }), `${A}/name`, 'Name has already been taken');
      await expect422(api, () => post({ name: 'taken' }), `${A}/name`, 'Name has already been taken');
      const other = (await createWorkspace(api, 'acme', { name: 'not-taken' })).body.data;
      await expect422(
        api,
        () => api.patch(byId(other.id), wsBody({ name: 'TAKEN' })),
        `${A}/name`,
        'Name has already been taken',
      );
      // The same name is free in another organization.
      expect((await api.post('/api/v2/organizations/other/workspaces', wsBody({ name: 'Taken' }))).status).toBe(201);
    });

    it('rejects an unknown execution mode', async () => {
      await expect422(
        api,
        () => post({ name: 'em', 'execution-mode': 'cloud' }),
        `${A}/execution-mode`,
        /must be one of: remote, local, agent/,
      );
    });

    it('rejects execution-mode together with operations', async () => {
      await expect422(
        api,
        () => post({ name: 'both', 'execution-mode': 'remote', operations: true }),
        `${A}/operations`,
        /must not be specified together with execution-mode/,
      );
    });

    it('requires agent-pool-id for agent mode, on create and update', async () => {
      await expect422(
        api,
        () => post({ name: 'agentless', 'execution-mode': 'agent' }),
        `${A}/agent-pool-id`,
        "Agent pool id must be specified when using 'agent' execution mode",
      );
      const ws = (await createWorkspace(api, 'acme', { name: 'to-agent' })).body.data;
      await expect422(
        api,
        () => api.patch(byId(ws.id), wsBody({ 'execution-mode': 'agent' })),
        `${A}/agent-pool-id`,
        "Agent pool id must be specified when using 'agent' execution mode",
      );
    });

    it('forbids agent-pool-id for remote and local mode, without a mode, and with operations', async () => {
      const pool = await createAgentPool(api, 'acme', 'pool-rules');
      for (const mode of ['remote', 'local']) {
        await expect422(
          api,
          () => post({ name: 'pool-x', 'execution-mode': mode, 'agent-pool-id': pool }),
          `${A}/agent-pool-id`,
          "Agent pool id must not be specified unless using 'agent' execution mode",
        );
      }
      await expect422(
        api,
        () => post({ name: 'pool-y', 'agent-pool-id': pool }),
        `${A}/agent-pool-id`,
        "Agent pool id must not be specified unless using 'agent' execution mode",
      );
      await expect422(
        api,
        () => post({ name: 'pool-z', operations: true, 'agent-pool-id': pool }),
        `${A}/agent-pool-id`,
        'Agent pool id must not be specified together with operations',
      );
    });

    it('requires the agent pool to belong to the organization', async () => {
      const foreign = await createAgentPool(api, 'other', 'foreign-pool');
      await expect422(
        api,
        () => post({ name: 'foreign', 'execution-mode': 'agent', 'agent-pool-id': foreign }),
        `${A}/agent-pool-id`,
        `Agent pool ${foreign} not found in this organization`,
      );
      await expect422(
        api,
        () => post({ name: 'ghost', 'execution-mode': 'agent', 'agent-pool-id': 'apool-AAAAAAAAAAAAAAAA' }),
        `${A}/agent-pool-id`,
        /not found in this organization/,
      );
    });

    it('setting-overwrites.execution-mode true requires execution-mode', async () => {
      await expect422(
        api,
        () => post({ name: 'so', 'setting-overwrites': { 'execution-mode': true } }),
        `${A}/execution-mode`,
        'Execution mode must be specified when setting-overwrites.execution-mode is true',
      );
    });

    it('setting-overwrites execution-mode and agent-pool must agree', async () => {
      await expect422(
        api,
        () =>
          post({
            name: 'so2',
            'execution-mode': 'remote',
            'setting-overwrites': { 'execution-mode': true, 'agent-pool': false },
          }),
        `${A}/setting-overwrites`,
      );
    });

    it('setting-overwrites false (inherit) cannot come with an execution mode', async () => {
      await expect422(
        api,
        () => post({ name: 'so3', 'execution-mode': 'local', 'setting-overwrites': { 'execution-mode': false } }),
        `${A}/setting-overwrites/execution-mode`,
      );
      await expect422(
        api,
        () => post({ name: 'so4', operations: false, 'setting-overwrites': { 'agent-pool': false } }),
        `${A}/setting-overwrites/execution-mode`,
      );
    });

    it('vcs-repo tags-regex must be a regular expression', async () => {
      const token = await createOAuthToken(api, 'acme');
      await expect422(
        api,
        () => post({ name: 'rx', 'vcs-repo': { identifier: 'a/b', 'oauth-token-id': token, 'tags-regex': '([' } }),
        `${A}/vcs-repo/tags-regex`,
        'Tags regex is not a valid regular expression',
      );
    });

    it('vcs-repo on create needs identifier and oauth-token-id', async () => {
      const token = await createOAuthToken(api, 'acme');
      await expect422(
        api,
        () => post({ name: 'v1', 'vcs-repo': { 'oauth-token-id': token } }),
        `${A}/vcs-repo/identifier`,
        "Identifier can't be blank",
      );
      await expect422(
        api,
        () => post({ name: 'v2', 'vcs-repo': { identifier: 'acme/app' } }),
        `${A}/vcs-repo/oauth-token-id`,
        "Oauth token id can't be blank",
      );
      await expect422(
        api,
        () => post({ name: 'v3', 'vcs-repo': { identifier: 'no-slash', 'oauth-token-id': token } }),
        `${A}/vcs-repo/identifier`,
        /ORG\/REPO/,
      );
    });

    it('vcs-repo: oauth-token-id and the app installation id not both; the token must exist in the organization', async () => {
      const token = await createOAuthToken(api, 'acme');
      const ws = (
        await createWorkspace(api, 'acme', {
          name: 'vcs-rules',
          'vcs-repo': { identifier: 'a/b', 'oauth-token-id': token },
        })
      ).body.data;
      await expect422(
        api,
        () =>
          api.patch(
            byId(ws.id),
            wsBody({ 'vcs-repo': { 'oauth-token-id': token, 'github-app-installation-id': 'ghain-1' } }),
          ),
        `${A}/vcs-repo/oauth-token-id`,
        /must not be specified together/,
      );
      const foreign = await createOAuthToken(api, 'other');
      await expect422(
        api,
        () => post({ name: 'v4', 'vcs-repo': { identifier: 'a/b', 'oauth-token-id': foreign } }),
        `${A}/vcs-repo/oauth-token-id`,
        /not found in this organization/,
      );
      const bare = (await createWorkspace(api, 'acme', { name: 'vcs-none' })).body.data;
      await expect422(
        api,
        () => api.patch(byId(bare.id), wsBody({ 'vcs-repo': { branch: 'main' } })),
        `${A}/vcs-repo/identifier`,
        "Identifier can't be blank",
      );
    });

    it.each(['20m', '0d', '10000d', 'd', '5 d', ''])('rejects the auto-destroy duration %j', async (value) => {
      await expect422(
        api,
        () => post({ name: 'dur', 'auto-destroy-activity-duration': value }),
        `${A}/auto-destroy-activity-duration`,
        "Auto destroy activity duration has an incorrect format, we expect up to 4 numeric digits and 1 unit ('d' or 'h')",
      );
    });

    it('rejects an auto-destroy-at that is not a timestamp', async () => {
      await expect422(api, () => post({ name: 'at', 'auto-destroy-at': 'tomorrow' }), `${A}/auto-destroy-at`);
    });

    it.each(['nonexisting', '9.9.9', '1.5.99', '~>', 'latest-ish'])(
      'rejects the engine version %j',
      async (version) => {
        await expect422(
          api,
          () => post({ name: 'tfv', 'terraform-version': version }),
          `${A}/terraform-version`,
          /is not a known version or a version constraint/,
        );
      },
    );

    it('rejects attributes of the wrong JSON type', async () => {
      await expect422(
        api,
        () => post({ name: 'types', 'auto-apply': 'yes' }),
        `${A}/auto-apply`,
        'Auto-apply must be a boolean',
      );
      await expect422(api, () => post({ name: 'types', 'trigger-prefixes': 'x' }), `${A}/trigger-prefixes`);
    });

    it('rejects bad inline tag bindings (limit 10, characters, reserved prefixes) and leaves existing ones on update', async () => {
      const eleven = Object.fromEntries(Array.from({ length: 11 }, (_, i) => [`k${i}`, 'v']));
      await expect422(
        api,
        () => post({ name: 'tb11' }, { 'tag-bindings': bindings(eleven) }),
        '/data/relationships/tag-bindings',
        'Tag bindings cannot exceed 10 bindings per resource',
      );
      const ten = Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`k${i}`, 'v']));
      expect((await post({ name: 'tb10' }, { 'tag-bindings': bindings(ten) })).status).toBe(201);
      await expect422(
        api,
        () => post({ name: 'tbbad' }, { 'tag-bindings': bindings({ 'hc:x': '1' }) }),
        '/data/relationships/tag-bindings/data/0/attributes/key',
      );
      await expect422(
        api,
        () => api.patch(byName('Taken'), wsBody({}, { 'tag-bindings': bindings({ 'bad key': '1' }) })),
        '/data/relationships/tag-bindings/data/0/attributes/key',
      );
    });

    it('rejects an unknown project or one of another organization', async () => {
      const foreign = await defaultProjectId(api, 'other');
      await expect422(
        api,
        () => post({ name: 'prj' }, { project: { data: { type: 'projects', id: foreign } } }),
        '/data/relationships/project/data/id',
        /not found in this organization/,
      );
      await expect422(
        api,
        () => post({ name: 'prj' }, { project: { data: { type: 'projects', id: 'prj-AAAAAAAAAAAAAAAA' } } }),
        '/data/relationships/project/data/id',
      );
    });

    it('a rejected update changes nothing, in either addressing form', async () => {
      const before = (await api.get(byName('Taken'))).body;
      await expect422(
        api,
        () => api.patch(byName('Taken'), wsBody({ description: 'changed', 'execution-mode': 'bogus' })),
        `${A}/execution-mode`,
      );
      const ws = before.data;
      await expect422(
        api,
        () => api.patch(byId(ws.id), wsBody({ description: 'changed', 'terraform-version': 'nonexisting' })),
        `${A}/terraform-version`,
      );
      expect((await api.get(byName('Taken'))).body).toEqual(before);
    });

    it('several failures come back together', async () => {
      const res = await expect422(
        api,
        () => post({ name: 'bad name', 'auto-destroy-activity-duration': '1m' }),
        `${A}/name`,
      );
      expect(res.body.errors.map((e: any) => e.source.pointer)).toEqual([
        `${A}/name`,
        `${A}/auto-destroy-activity-duration`,
      ]);
    });
  });

  describe('editions', () => {
    it('self-hosted rejects assessments-enabled on write and omits it', async () => {
      await expect422(
        api,
        () => post({ name: 'assess', 'assessments-enabled': true }),
        `${A}/assessments-enabled`,
        'Assessments enabled is only available in the hosted edition',
      );
      const ws = (await createWorkspace(api, 'acme', { name: 'no-assess' })).body.data;
      expect('assessments-enabled' in ws.attributes).toBe(false);
      expect(ws.relationships['data-retention-policy']).toEqual({ data: null });
      await expect422(
        api,
        () => api.patch(byId(ws.id), wsBody({ 'assessments-enabled': true })),
        `${A}/assessments-enabled`,
      );
    });

    it('self-hosted takes assessments-enabled false (the tfe provider always sends it) as a no-op', async () => {
      const created = await api.post(
        '/api/v2/organizations/acme/workspaces',
        wsBody({ name: 'provider-made', 'assessments-enabled': false, description: 'by tfe' }),
      );
      expect(created.status, created.text).toBe(201);
      expect(created.body.data.attributes.description).toBe('by tfe');
      expect('assessments-enabled' in created.body.data.attributes).toBe(false);
      const patched = await api.patch(
        byId(created.body.data.id),
        wsBody({ 'assessments-enabled': false, description: 'again' }),
      );
      expect(patched.status, patched.text).toBe(200);
      expect(patched.body.data.attributes.description).toBe('again');
      expect('assessments-enabled' in patched.body.data.attributes).toBe(false);
    });

    it('hosted accepts and returns assessments-enabled (default false)', async () => {
      const hosted = await TestApi.create({ settings: { edition: 'hosted' } });
      try {
        await hosted.createOrg('h');
        const plain = await hosted.post('/api/v2/organizations/h/workspaces', wsBody({ name: 'plain' }));
        expect(plain.body.data.attributes['assessments-enabled']).toBe(false);
        expect(plain.body.data.relationships['data-retention-policy']).toBeUndefined();
        const on = await hosted.post(
          '/api/v2/organizations/h/workspaces',
          wsBody({ name: 'on', 'assessments-enabled': true }),
        );
        expect(on.status).toBe(201);
        expect(on.body.data.attributes['assessments-enabled']).toBe(true);
        const off = await hosted.patch(
          `/api/v2/workspaces/${on.body.data.id}`,
          wsBody({ 'assessments-enabled': false }),
        );
        expect(off.body.data.attributes['assessments-enabled']).toBe(false);
        expect((await hosted.get(`/api/v2/workspaces/${on.body.data.id}`)).body).toEqual(off.body);
      } finally {
        await hosted.close();
      }
    });

    it('serve stores the edition in the settings table and loads it back', async () => {
      const { saveEdition, loadSettings } = await import('../../../src/services/instance/settings.js');
      const other = await TestApi.create();
      try {
        expect((await loadSettings(other.store.db)).edition).toBe('self-hosted');
        await saveEdition(other.store.db, 'hosted');
        expect((await loadSettings(other.store.db)).edition).toBe('hosted');
        await saveEdition(other.store.db, 'self-hosted');
        // (Beside the id of the key of sensitive values, which every start records: store/secrets/.)
        expect(await other.store.db.selectFrom('settings').selectAll().where('key', '=', 'edition').execute()).toEqual([
          { key: 'edition', value: 'self-hosted' },
        ]);
      } finally {
        await other.close();
      }
    });
  });

  it('a write by a non-member is a 404 and stores nothing', async () => {
    const outsider = await teamUser(api, 'other', 'outsider', { is_owners: 1 });
    const before = await storeSnapshot(api);
    expect(
      (await api.post('/api/v2/organizations/acme/workspaces', wsBody({ name: 'sneaky' }), { token: outsider })).status,
    ).toBe(404);
    expect((await api.patch(byName('Taken'), wsBody({ description: 'sneaky' }), { token: outsider })).status).toBe(404);
    expect(await storeSnapshot(api)).toEqual(before);
  });
});
