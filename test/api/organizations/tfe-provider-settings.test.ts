import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { createWorkspace, expect422, wsBody } from '../../helpers/workspaces.js';

/**
 * Settings the tfe provider (v0.50) writes and reads back, which must round-trip exactly as HCP
 * Terraform keeps them, on both editions: an organization's `owners-team-saml-role-id`, a
 * workspace's `structured-run-output-enabled`, and `trigger-prefixes` / `trigger-patterns`.
 */
const P = '/api/v2';
const orgBody = (attributes: Record<string, unknown>) => ({ data: { type: 'organizations', attributes } });

describe.each([
  ['self-hosted', {}],
  ['hosted', { settings: { edition: 'hosted' as const } }],
])('tfe provider settings (%s edition)', (_edition, options) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.create(options);
    expect((await api.createOrg('acme')).status).toBe(201);
  });
  afterAll(() => api.close());

  describe('owners-team-saml-role-id', () => {
    it('is null until set, then read back as written, and cleared by null or an empty string', async () => {
      expect((await api.get(`${P}/organizations/acme`)).body.data.attributes['owners-team-saml-role-id']).toBeNull();
      const set = await api.patch(`${P}/organizations/acme`, orgBody({ 'owners-team-saml-role-id': 'tf-owners' }));
      expect(set.status, set.text).toBe(200);
      expect(set.body.data.attributes['owners-team-saml-role-id']).toBe('tf-owners');
      expect((await api.get(`${P}/organizations/acme`)).body.data.attributes['owners-team-saml-role-id']).toBe(
        'tf-owners',
      );
      // A PATCH that does not name it keeps it.
      await api.patch(`${P}/organizations/acme`, orgBody({ 'cost-estimation-enabled': true }));
      expect((await api.get(`${P}/organizations/acme`)).body.data.attributes['owners-team-saml-role-id']).toBe(
        'tf-owners',
      );
      for (const cleared of [null, '']) {
        await api.patch(`${P}/organizations/acme`, orgBody({ 'owners-team-saml-role-id': 'again' }));
        const res = await api.patch(`${P}/organizations/acme`, orgBody({ 'owners-team-saml-role-id': cleared }));
        expect(res.body.data.attributes['owners-team-saml-role-id']).toBeNull();
      }
    });

    it('is taken on create', async () => {
      const res = await api.post(
        `${P}/organizations`,
        orgBody({ name: 'saml-org', email: 'saml@example.com', 'owners-team-saml-role-id': 'admins' }),
      );
      expect(res.status, res.text).toBe(201);
      expect(res.body.data.attributes['owners-team-saml-role-id']).toBe('admins');
      expect((await api.get(`${P}/organizations/saml-org`)).body.data.attributes['owners-team-saml-role-id']).toBe(
        'admins',
      );
    });

    it('refuses a value that is not a string, or too long (422 at the attribute), changing nothing', async () => {
      for (const bad of [42, 'x'.repeat(256)]) {
        const res = await api.patch(`${P}/organizations/acme`, orgBody({ 'owners-team-saml-role-id': bad }));
        expect(res.status, res.text).toBe(422);
        expect(res.body.errors[0].source.pointer).toBe('/data/attributes/owners-team-saml-role-id');
      }
      expect((await api.get(`${P}/organizations/acme`)).body.data.attributes['owners-team-saml-role-id']).toBeNull();
    });
  });

  describe('structured-run-output-enabled', () => {
    const attr = (res: { body: any }) => res.body.data.attributes['structured-run-output-enabled'];

    it('defaults to true, and is stored and read back as written (show, list, PATCH)', async () => {
      expect(attr(await createWorkspace(api, 'acme', { name: 'sro-default' }))).toBe(true);
      const off = await createWorkspace(api, 'acme', { name: 'sro-off', 'structured-run-output-enabled': false });
      expect(attr(off)).toBe(false);
      expect(attr(await api.get(`${P}/workspaces/${off.body.data.id}`))).toBe(false);
      expect(attr(await api.get(`${P}/organizations/acme/workspaces/sro-off`))).toBe(false);
      const list = await api.get(`${P}/organizations/acme/workspaces?search[name]=sro`);
      expect(
        Object.fromEntries(
          list.body.data.map((w: any) => [w.attributes.name, w.attributes['structured-run-output-enabled']]),
        ),
      ).toEqual({ 'sro-default': true, 'sro-off': false });
      // A PATCH that does not name it keeps it; one that does changes it.
      expect(attr(await api.patch(`${P}/workspaces/${off.body.data.id}`, wsBody({ description: 'x' })))).toBe(false);
      const on = await api.patch(
        `${P}/workspaces/${off.body.data.id}`,
        wsBody({ 'structured-run-output-enabled': true }),
      );
      expect(on.status, on.text).toBe(200);
      expect(attr(on)).toBe(true);
      expect(attr(await api.get(`${P}/workspaces/${off.body.data.id}`))).toBe(true);
    });

    it('refuses a value that is not a boolean (422 at the attribute), changing nothing', async () => {
      const ws = await createWorkspace(api, 'acme', { name: 'sro-bad' });
      await expect422(
        api,
        () => api.patch(`${P}/workspaces/${ws.body.data.id}`, wsBody({ 'structured-run-output-enabled': 'no' })),
        '/data/attributes/structured-run-output-enabled',
      );
    });
  });
});

/**
 * A team access changed from a fixed level to `custom` keeps, for every permission the request
 * leaves out, what the fixed level implied (what HCP Terraform showed, read-only, until then):
 * the tfe provider's tfe_team_access sends only the permissions its configuration names.
 */
describe.each([
  ['self-hosted', {}],
  ['hosted', { settings: { edition: 'hosted' as const } }],
])('team access turned custom (%s edition)', (_edition, options) => {
  let api: TestApi;
  let teamId: string;
  let workspaceId: string;
  let projectId: string;
  beforeAll(async () => {
    api = await TestApi.create(options);
    expect((await api.createOrg('acme')).status).toBe(201);
    teamId = (
      await api.post(`${P}/organizations/acme/teams`, { data: { type: 'teams', attributes: { name: 'devs' } } })
    ).body.data.id;
    workspaceId = (await createWorkspace(api, 'acme', { name: 'web' })).body.data.id;
    projectId = (await api.get(`${P}/organizations/acme`)).body.data.relationships['default-project'].data.id;
  });
  afterAll(() => api.close());

  const rel = (type: string, id: string) => ({ data: { type, id } });

  it('team-workspaces: write -> custom keeps runs apply, locking, variables and state write', async () => {
    const created = await api.post(`${P}/team-workspaces`, {
      data: {
        type: 'team-workspaces',
        attributes: { access: 'write' },
        relationships: { team: rel('teams', teamId), workspace: rel('workspaces', workspaceId) },
      },
    });
    expect(created.status, created.text).toBe(200);
    const id = created.body.data.id;
    const custom = await api.patch(`${P}/team-workspaces/${id}`, {
      data: { type: 'team-workspaces', attributes: { access: 'custom', variables: 'read' } },
    });
    expect(custom.status, custom.text).toBe(200);
    expect(custom.body.data.attributes).toEqual({
      access: 'custom',
      runs: 'apply',
      variables: 'read',
      'state-versions': 'write',
      'sentinel-mocks': 'read',
      'workspace-locking': true,
      'run-tasks': false,
    });
    expect((await api.get(`${P}/team-workspaces/${id}`)).body.data.attributes).toEqual(custom.body.data.attributes);
    // A new custom grant starts from HCP's custom defaults.
    await api.delete(`${P}/team-workspaces/${id}`);
    const fresh = await api.post(`${P}/team-workspaces`, {
      data: {
        type: 'team-workspaces',
        attributes: { access: 'custom', variables: 'read' },
        relationships: { team: rel('teams', teamId), workspace: rel('workspaces', workspaceId) },
      },
    });
    expect(fresh.body.data.attributes).toMatchObject({
      runs: 'read',
      'state-versions': 'none',
      'workspace-locking': false,
    });
    await api.delete(`${P}/team-workspaces/${fresh.body.data.id}`);
  });

  it('team-projects: admin -> custom keeps what admin implied', async () => {
    const created = await api.post(`${P}/team-projects`, {
      data: {
        type: 'team-projects',
        attributes: { access: 'admin' },
        relationships: { team: rel('teams', teamId), project: rel('projects', projectId) },
      },
    });
    expect(created.status, created.text).toBe(200);
    const id = created.body.data.id;
    const custom = await api.patch(`${P}/team-projects/${id}`, {
      data: { type: 'team-projects', attributes: { access: 'custom', 'workspace-access': { 'run-tasks': false } } },
    });
    expect(custom.status, custom.text).toBe(200);
    expect(custom.body.data.attributes['project-access']).toEqual(created.body.data.attributes['project-access']);
    expect(custom.body.data.attributes['workspace-access']).toEqual({
      ...created.body.data.attributes['workspace-access'],
      'run-tasks': false,
    });
    expect(custom.body.data.attributes['workspace-access']).toMatchObject({ runs: 'apply', create: true, move: true });
  });
});

/**
 * `trigger-prefixes` and `trigger-patterns` are alternatives (HCP Terraform's workspace API: with
 * file triggers enabled a workspace uses either one; the tfe provider marks them conflicting):
 * sending one of them (even an empty list) empties the other, and patterns need file triggers
 * enabled.
 */
describe.each([
  ['self-hosted', {}],
  ['hosted', { settings: { edition: 'hosted' as const } }],
])('trigger prefixes and patterns (%s edition)', (_edition, options) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.create(options);
    expect((await api.createOrg('acme')).status).toBe(201);
  });
  afterAll(() => api.close());

  const triggers = (res: { body: any }) => ({
    prefixes: res.body.data.attributes['trigger-prefixes'],
    patterns: res.body.data.attributes['trigger-patterns'],
    files: res.body.data.attributes['file-triggers-enabled'],
  });

  it('a PATCH that sets one list empties the other, and the reverse', async () => {
    const ws = await createWorkspace(api, 'acme', { name: 'mono', 'trigger-prefixes': ['/modules'] });
    const id = ws.body.data.id;
    expect(triggers(ws)).toEqual({ prefixes: ['/modules'], patterns: [], files: true });
    const toPatterns = await api.patch(`${P}/workspaces/${id}`, wsBody({ 'trigger-patterns': ['/**/*.tf'] }));
    expect(toPatterns.status, toPatterns.text).toBe(200);
    expect(triggers(toPatterns)).toEqual({ prefixes: [], patterns: ['/**/*.tf'], files: true });
    expect(triggers(await api.get(`${P}/workspaces/${id}`))).toEqual({
      prefixes: [],
      patterns: ['/**/*.tf'],
      files: true,
    });
    const toPrefixes = await api.patch(`${P}/workspaces/${id}`, wsBody({ 'trigger-prefixes': ['/vendor'] }));
    expect(triggers(toPrefixes)).toEqual({ prefixes: ['/vendor'], patterns: [], files: true });
    // An empty list given next to the other one (as the tfe provider sends them) is no conflict.
    const both = await api.patch(
      `${P}/workspaces/${id}`,
      wsBody({ 'trigger-prefixes': [], 'trigger-patterns': ['/a/*'] }),
    );
    expect(both.status, both.text).toBe(200);
    expect(triggers(both)).toEqual({ prefixes: [], patterns: ['/a/*'], files: true });
    // A PATCH naming neither list keeps both.
    const other = await api.patch(`${P}/workspaces/${id}`, wsBody({ description: 'kept' }));
    expect(triggers(other)).toEqual({ prefixes: [], patterns: ['/a/*'], files: true });
  });

  // The tfe provider's permutation suite (resource_tfe_workspace_test.go): its update sends only the
  // list the configuration names, as [] once emptied, and expects both lists empty afterwards.
  it.each([
    ['trigger-prefixes', 'trigger-patterns', ['/pattern1', '/pattern2']],
    ['trigger-patterns', 'trigger-prefixes', ['/prefix1']],
  ])('sending %s: [] empties %s too', async (sent, other, before) => {
    const ws = await createWorkspace(api, 'acme', { name: `empty-${sent}`, [other]: before });
    expect(ws.body.data.attributes[other]).toEqual(before);
    for (const empty of [[], null]) {
      const res = await api.patch(`${P}/workspaces/${ws.body.data.id}`, wsBody({ [sent]: empty }));
      expect(res.status, res.text).toBe(200);
      expect(triggers(res)).toEqual({ prefixes: [], patterns: [], files: true });
      expect(triggers(await api.get(`${P}/workspaces/${ws.body.data.id}`))).toEqual({
        prefixes: [],
        patterns: [],
        files: true,
      });
      await api.patch(`${P}/workspaces/${ws.body.data.id}`, wsBody({ [other]: before }));
    }
  });

  it('file triggers turned off with trigger-patterns: [] empties the prefixes (the provider permutation)', async () => {
    const ws = await createWorkspace(api, 'acme', { name: 'omar', 'trigger-prefixes': ['omar'] });
    const res = await api.patch(
      `${P}/workspaces/${ws.body.data.id}`,
      wsBody({ 'file-triggers-enabled': false, 'trigger-patterns': [] }),
    );
    expect(res.status, res.text).toBe(200);
    expect(triggers(res)).toEqual({ prefixes: [], patterns: [], files: false });
  });

  it('both lists non-empty in one request is a 422 at trigger-patterns, on create and update, changing nothing', async () => {
    await expect422(
      api,
      () =>
        api.post(
          `${P}/organizations/acme/workspaces`,
          wsBody({ name: 'both', 'trigger-prefixes': ['/m'], 'trigger-patterns': ['/p/*'] }),
        ),
      '/data/attributes/trigger-patterns',
    );
    const ws = await createWorkspace(api, 'acme', { name: 'both-update' });
    await expect422(
      api,
      () =>
        api.patch(
          `${P}/workspaces/${ws.body.data.id}`,
          wsBody({ 'trigger-prefixes': ['/m'], 'trigger-patterns': ['/p/*'] }),
        ),
      '/data/attributes/trigger-patterns',
    );
  });

  it('trigger-patterns with file-triggers-enabled false (in the request or stored) is a 422, changing nothing', async () => {
    await expect422(
      api,
      () =>
        api.post(
          `${P}/organizations/acme/workspaces`,
          wsBody({ name: 'nofiles', 'file-triggers-enabled': false, 'trigger-patterns': ['/p/*'] }),
        ),
      '/data/attributes/trigger-patterns',
      "'trigger_patterns' cannot be populated when 'file_triggers_enabled' is set to false.",
    );
    const ws = await createWorkspace(api, 'acme', { name: 'files-off', 'file-triggers-enabled': false });
    const id = ws.body.data.id;
    await expect422(
      api,
      () => api.patch(`${P}/workspaces/${id}`, wsBody({ 'trigger-patterns': ['/p/*'] })),
      '/data/attributes/trigger-patterns',
    );
    const on = await createWorkspace(api, 'acme', { name: 'files-on' });
    await expect422(
      api,
      () =>
        api.patch(
          `${P}/workspaces/${on.body.data.id}`,
          wsBody({ 'file-triggers-enabled': false, 'trigger-patterns': ['/p/*'] }),
        ),
      '/data/attributes/trigger-patterns',
    );
    // Enabling file triggers in the same request makes patterns valid; prefixes need no file triggers.
    const enable = await api.patch(
      `${P}/workspaces/${id}`,
      wsBody({ 'file-triggers-enabled': true, 'trigger-patterns': ['/p/*'] }),
    );
    expect(enable.status, enable.text).toBe(200);
    expect(triggers(enable)).toEqual({ prefixes: [], patterns: ['/p/*'], files: true });
    const prefixesOff = await createWorkspace(api, 'acme', {
      name: 'prefixes-off',
      'file-triggers-enabled': false,
      'trigger-prefixes': ['/m'],
    });
    expect(triggers(prefixesOff)).toEqual({ prefixes: ['/m'], patterns: [], files: false });
  });
});

/**
 * Team names with `/` (the tfe provider's acceptance tests create `team/name/with/slashes` in HCP
 * Terraform, and import it as `ORG/team/name/with/slashes`, found with `filter[names]`).
 */
describe.each([
  ['self-hosted', {}],
  ['hosted', { settings: { edition: 'hosted' as const } }],
])('team names with slashes (%s edition)', (_edition, options) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.create(options);
    expect((await api.createOrg('acme')).status).toBe(201);
  });
  afterAll(() => api.close());

  const teamBody = (name: string) => ({ data: { type: 'teams', attributes: { name } } });

  it('creates, finds by filter[names] (URL-encoded or not), reads, renames and deletes a team named with slashes', async () => {
    const created = await api.post(`${P}/organizations/acme/teams`, teamBody('team/name/with/slashes'));
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.attributes.name).toBe('team/name/with/slashes');
    const id = created.body.data.id;
    for (const query of [
      `filter%5Bnames%5D=${encodeURIComponent('team/name/with/slashes')}`,
      'filter[names]=team/name/with/slashes',
    ]) {
      const found = await api.get(`${P}/organizations/acme/teams?${query}`);
      expect(found.status).toBe(200);
      expect(found.body.data.map((t: any) => t.id)).toEqual([id]);
    }
    expect((await api.get(`${P}/teams/${id}`)).body.data.attributes.name).toBe('team/name/with/slashes');
    const renamed = await api.patch(`${P}/teams/${id}`, teamBody('/leading/and/trailing/'));
    expect(renamed.status, renamed.text).toBe(200);
    expect(renamed.body.data.attributes.name).toBe('/leading/and/trailing/');
    // Unique in the organization, slashes or not.
    expect((await api.post(`${P}/organizations/acme/teams`, teamBody('/leading/and/trailing/'))).status).toBe(422);
    expect((await api.delete(`${P}/teams/${id}`)).status).toBe(204);
  });

  it('still refuses other characters (422 at the name)', async () => {
    for (const name of ['a\\b', 'a?b', ' x/y']) {
      const res = await api.post(`${P}/organizations/acme/teams`, teamBody(name));
      expect(res.status, name).toBe(422);
      expect(res.body.errors[0].source.pointer).toBe('/data/attributes/name');
    }
  });
});

/**
 * An invitation to an email nobody has: a membership whose user has an empty username (go-tfe's
 * OrganizationMembership with its User), which claims no username, goes to whoever is created
 * later with that email, and leaves nothing behind when deleted.
 */
describe.each([
  ['self-hosted', {}],
  ['hosted', { settings: { edition: 'hosted' as const } }],
])('invitations of people without an account (%s edition)', (_edition, options) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.create(options);
    expect((await api.createOrg('acme')).status).toBe(201);
  });
  afterAll(() => api.close());

  const invite = (email: string) =>
    api.post(`${P}/organizations/acme/organization-memberships?include=user`, {
      data: { type: 'organization-memberships', attributes: { email } },
    });
  const createUser = (username: string, email: string) =>
    api.post(`${P}/admin/users`, { data: { type: 'users', attributes: { username, email } } });

  it('the membership user shows an empty username, and the username stays free', async () => {
    const res = await invite('example@corp.test');
    expect(res.status, res.text).toBe(201);
    const userId = res.body.data.relationships.user.data.id;
    expect(res.body.data.attributes).toMatchObject({ status: 'invited', email: 'example@corp.test' });
    expect(res.body.included).toEqual([
      expect.objectContaining({ id: userId, type: 'users', attributes: expect.objectContaining({ username: '' }) }),
    ]);
    const listed = await api.get(`${P}/organizations/acme/organization-memberships?include=user&q=example`);
    expect(listed.body.included.find((u: any) => u.id === userId).attributes.username).toBe('');
    // `example` (the address's local part) is free for someone else.
    const other = await createUser('example', 'someone.else@corp.test');
    expect(other.status, other.text).toBe(201);
    expect(other.body.data.id).not.toBe(userId);
    // Nobody can name the invitation by a username.
    const team = await api.post(`${P}/organizations/acme/teams`, {
      data: { type: 'teams', attributes: { name: 'ops' } },
    });
    const stored = (
      await api.store.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'example@corp.test')
        .executeTakeFirstOrThrow()
    ).id;
    for (const username of ['', `~${stored}`, `~${userId}`]) {
      const add = await api.post(`${P}/teams/${team.body.data.id}/relationships/users`, {
        data: [{ type: 'users', id: username }],
      });
      expect(add.status, username).not.toBe(204);
    }
  });

  it('the user later created with that email gets the pending invitation, and can accept it', async () => {
    const res = await invite('Late.Comer@corp.test');
    const membershipId = res.body.data.id;
    // The placeholder's own id (the membership shows the invitation's id until it is accepted).
    const placeholder = (
      await api.store.db
        .selectFrom('users')
        .select('id')
        .where('email', '=', 'Late.Comer@corp.test')
        .executeTakeFirstOrThrow()
    ).id;
    const created = await createUser('latecomer', 'late.comer@corp.test');
    expect(created.status, created.text).toBe(201);
    expect(created.body.data.attributes.username).toBe('latecomer');
    const token = (
      await api.post(`${P}/users/${created.body.data.id}/authentication-tokens`, {
        data: { type: 'authentication-tokens', attributes: {} },
      })
    ).body.data.attributes.token;
    const mine = await api.get(`${P}/organization-memberships`, { token });
    expect(mine.body.data.map((m: any) => [m.id, m.attributes.status])).toEqual([[membershipId, 'invited']]);
    expect(created.body.data.id).toBe(placeholder);
    const accepted = await api.post(`${P}/organization-memberships/${membershipId}/actions/accept`, undefined, {
      token,
    });
    expect(accepted.status, accepted.text).toBe(200);
    const shown = await api.get(`${P}/organization-memberships/${membershipId}?include=user`);
    expect(shown.body.data.attributes.status).toBe('active');
    expect(shown.body.included[0].attributes.username).toBe('latecomer');
  });

  it('deleting the invitation leaves no user behind; so does deleting the organization', async () => {
    const byEmail = (email: string) =>
      api.store.db.selectFrom('users').select('id').where('email', '=', email).execute();
    const res = await invite('gone@corp.test');
    expect(await byEmail('gone@corp.test')).toHaveLength(1);
    expect((await api.delete(`${P}/organization-memberships/${res.body.data.id}`)).status).toBe(204);
    expect(await byEmail('gone@corp.test')).toEqual([]);

    expect((await api.createOrg('doomed')).status).toBe(201);
    const doomed = await api.post(`${P}/organizations/doomed/organization-memberships`, {
      data: { type: 'organization-memberships', attributes: { email: 'doomed@corp.test' } },
    });
    expect(doomed.status, doomed.text).toBe(201);
    expect(await byEmail('doomed@corp.test')).toHaveLength(1);
    expect((await api.delete(`${P}/organizations/doomed`)).status).toBe(204);
    expect(await byEmail('doomed@corp.test')).toEqual([]);
  });
});

/**
 * A user added to a team while their invitation is pending (by organization membership id, which
 * HCP Terraform allows with only an invitation): the team's `users` leaves them out (HCP: invited
 * users who have not accepted do not appear among a team's users) and its
 * `organization-memberships` relates their membership, which is what the tfe provider's
 * tfe_team_organization_member(s) read back (go-tfe TeamMembers.ListOrganizationMemberships).
 */
describe.each([
  ['self-hosted', {}],
  ['hosted', { settings: { edition: 'hosted' as const } }],
])('team members with a pending invitation (%s edition)', (_edition, options) => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.create(options);
    expect((await api.createOrg('acme')).status).toBe(201);
  });
  afterAll(() => api.close());

  it('relates the membership, not the user, until they accept', async () => {
    const team = (
      await api.post(`${P}/organizations/acme/teams`, { data: { type: 'teams', attributes: { name: 'devs' } } })
    ).body.data.id;
    const invited = await api.post(`${P}/organizations/acme/organization-memberships`, {
      data: { type: 'organization-memberships', attributes: { email: 'pending@corp.test' } },
    });
    const membershipId = invited.body.data.id;
    const add = await api.post(`${P}/teams/${team}/relationships/organization-memberships`, {
      data: [{ type: 'organization-memberships', id: membershipId }],
    });
    expect(add.status, add.text).toBe(204);
    const read = await api.get(`${P}/teams/${team}?include=organization-memberships`);
    expect(read.body.data.relationships.users.data).toEqual([]);
    expect(read.body.data.attributes['users-count']).toBe(0);
    expect(read.body.data.relationships['organization-memberships'].data).toEqual([
      { type: 'organization-memberships', id: membershipId },
    ]);
    expect(read.body.included).toEqual([
      expect.objectContaining({ id: membershipId, attributes: expect.objectContaining({ status: 'invited' }) }),
    ]);
    // The membership names the team it will join, and its user (no username yet).
    const membership = await api.get(`${P}/organization-memberships/${membershipId}?include=user`);
    expect(membership.body.data.relationships.teams.data).toEqual([{ type: 'teams', id: team }]);
    expect(membership.body.included[0].attributes.username).toBe('');
    // Once they have an account and accept, they are among the team's users.
    const user = await api.post(`${P}/admin/users`, {
      data: { type: 'users', attributes: { username: 'pending', email: 'pending@corp.test' } },
    });
    const token = (
      await api.post(`${P}/users/${user.body.data.id}/authentication-tokens`, {
        data: { type: 'authentication-tokens', attributes: {} },
      })
    ).body.data.attributes.token;
    expect(
      (await api.post(`${P}/organization-memberships/${membershipId}/actions/accept`, undefined, { token })).status,
    ).toBe(200);
    const after = await api.get(`${P}/teams/${team}?include=users,organization-memberships`);
    expect(after.body.data.relationships.users.data).toEqual([{ type: 'users', id: user.body.data.id }]);
    expect(after.body.data.relationships['organization-memberships'].data).toEqual([
      { type: 'organization-memberships', id: membershipId },
    ]);
  });
});
