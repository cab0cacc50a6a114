import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { accessFixture, teamBody, teamMember, type AccessFixture } from '../../helpers/access.js';

const P = '/api/v2';
const FLAGS = [
  'manage-policies',
  'manage-policy-overrides',
  'manage-workspaces',
  'manage-vcs-settings',
  'manage-providers',
  'manage-modules',
  'manage-run-tasks',
  'manage-projects',
  'read-workspaces',
  'read-projects',
  'manage-membership',
  'manage-teams',
  'manage-organization-access',
  'access-secret-teams',
  'manage-agent-pools',
];
const patchBody = (attributes: Record<string, unknown>) => ({ data: { type: 'teams', attributes } });
const users = (...names: string[]) => ({ data: names.map((id) => ({ type: 'users', id })) });

describe("teams: every organization-access flag, HCP's attributes, filters, and the flags berth enforces", () => {
  let api: TestApi;
  let f: AccessFixture;
  let owner: string;

  beforeAll(async () => {
    api = await TestApi.create();
    f = await accessFixture(api);
    owner = f.owner.token;
  });
  afterAll(() => api.close());

  it('reads every flag back as sent; an update changes only the flags it names', async () => {
    const sent = Object.fromEntries(FLAGS.map((flag, i) => [flag, i % 2 === 0]));
    const made = await api.post(`${P}/organizations/acme/teams`, teamBody('flags', sent), { token: owner });
    expect(made.status, made.text).toBe(201);
    expect(made.body.data.attributes['organization-access']).toEqual(sent);
    const id = made.body.data.id;
    const changed = await api.patch(
      `${P}/teams/${id}`,
      patchBody({ 'organization-access': { 'manage-membership': true, 'manage-policies': false } }),
      { token: owner },
    );
    expect(changed.status).toBe(200);
    const read = (await api.get(`${P}/teams/${id}`, { token: owner })).body.data.attributes['organization-access'];
    expect(read).toEqual({ ...sent, 'manage-membership': true, 'manage-policies': false });
    const bad = await api.patch(`${P}/teams/${id}`, patchBody({ 'organization-access': { 'manage-teams': 'yes' } }), {
      token: owner,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].source.pointer).toBe('/data/attributes/organization-access/manage-teams');
  });

  it('shows the owners team with every flag', async () => {
    const teams = (await api.get(`${P}/organizations/acme/teams`, { token: owner })).body.data;
    const owners = teams.find((t: any) => t.attributes.name === 'owners');
    expect(Object.values(owners.attributes['organization-access'])).toEqual(FLAGS.map(() => true));
  });

  it('stores sso-team-id and allow-member-token-management (default true), visibility secret by default', async () => {
    const made = await api.post(
      `${P}/organizations/acme/teams`,
      { data: { type: 'teams', attributes: { name: 'rockettes', 'sso-team-id': '7dddb675-73e0-4858' } } },
      { token: owner },
    );
    expect(made.body.data.attributes).toMatchObject({
      'sso-team-id': '7dddb675-73e0-4858',
      'allow-member-token-management': true,
      visibility: 'secret',
    });
    const updated = await api.patch(
      `${P}/teams/${made.body.data.id}`,
      patchBody({ name: 'foo bar', 'sso-team-id': null, 'allow-member-token-management': false }),
      { token: owner },
    );
    expect(updated.body.data.attributes).toMatchObject({
      name: 'foo bar',
      'sso-team-id': null,
      'allow-member-token-management': false,
    });
    for (const name of [' lead', 'trail ', 'a!b', 'x'.repeat(65)]) {
      const res = await api.post(`${P}/organizations/acme/teams`, teamBody(name), { token: owner });
      expect(res.status, name).toBe(422);
    }
  });

  it('lists with filter[names] (repeated or comma-separated), q, and include=users', async () => {
    for (const name of ['alpha-team', 'beta-team', 'gamma-team']) {
      await api.post(`${P}/organizations/acme/teams`, teamBody(name), { token: owner });
    }
    const names = async (query: string) =>
      (await api.get(`${P}/organizations/acme/teams?${query}`, { token: owner })).body.data
        .map((t: any) => t.attributes.name)
        .sort();
    expect(await names('filter[names]=alpha-team&filter[names]=gamma-team')).toEqual(['alpha-team', 'gamma-team']);
    expect(await names('filter%5Bnames%5D=beta-team,gamma-team')).toEqual(['beta-team', 'gamma-team']);
    expect(await names('filter[names]=nope')).toEqual([]);
    expect(await names('q=ALPHA-')).toEqual(['alpha-team']);
    const withUsers = await api.get(`${P}/organizations/acme/teams?filter[names]=owners&include=users`, {
      token: owner,
    });
    expect(withUsers.body.included).toEqual([
      { id: f.owner.userId, type: 'users', attributes: { username: 'owner' }, links: expect.any(Object) },
    ]);
    expect((await api.get(`${P}/organizations/acme/teams?include=secrets`, { token: owner })).status).toBe(400);
  });

  it('manage-teams: creates, changes and deletes teams and their members, not their organization access', async () => {
    const lead = await teamMember(f, 'leads', { 'manage-teams': true, 'manage-membership': true });
    const made = await api.post(`${P}/organizations/acme/teams`, teamBody('by-lead'), { token: lead.token });
    expect(made.status, made.text).toBe(201);
    expect(made.body.data.attributes.permissions).toMatchObject({
      'can-destroy': true,
      'can-update-membership': true,
      'can-update-organization-access': false,
    });
    const id = made.body.data.id;
    const withAccess = await api.post(`${P}/organizations/acme/teams`, teamBody('x', { 'read-projects': true }), {
      token: lead.token,
    });
    expect(withAccess.status).toBe(404);
    expect(
      (
        await api.patch(`${P}/teams/${id}`, patchBody({ 'organization-access': { 'read-projects': true } }), {
          token: lead.token,
        })
      ).status,
    ).toBe(404);
    expect((await api.patch(`${P}/teams/${id}`, patchBody({ name: 'renamed' }), { token: lead.token })).status).toBe(
      200,
    );
    expect((await api.post(`${P}/teams/${id}/relationships/users`, users('owner'), { token: lead.token })).status).toBe(
      204,
    );
    // The owners team stays the owners'.
    const owners = (await api.get(`${P}/organizations/acme/teams?filter[names]=owners`, { token: lead.token })).body
      .data[0];
    expect(owners.attributes.permissions['can-update-membership']).toBe(false);
    expect(
      (await api.post(`${P}/teams/${owners.id}/relationships/users`, users('leads-user'), { token: lead.token }))
        .status,
    ).toBe(404);
    expect((await api.delete(`${P}/teams/${id}`, { token: lead.token })).status).toBe(204);
  });

  it('manage-membership: members of visible teams only; manage-organization-access: the flags only', async () => {
    const hr = await teamMember(f, 'hr', { 'manage-membership': true });
    const open = (
      await api.post(
        `${P}/organizations/acme/teams`,
        { data: { type: 'teams', attributes: { name: 'open', visibility: 'organization' } } },
        { token: owner },
      )
    ).body.data.id;
    const secret = (await api.post(`${P}/organizations/acme/teams`, teamBody('hidden'), { token: owner })).body.data.id;
    expect(
      (await api.post(`${P}/teams/${open}/relationships/users`, users('hr-user'), { token: hr.token })).status,
    ).toBe(204);
    expect(
      (await api.post(`${P}/teams/${secret}/relationships/users`, users('owner'), { token: hr.token })).status,
    ).toBe(404);
    expect((await api.post(`${P}/organizations/acme/teams`, teamBody('nope'), { token: hr.token })).status).toBe(404);
    expect((await api.patch(`${P}/teams/${open}`, patchBody({ name: 'shut' }), { token: hr.token })).status).toBe(404);

    const admins = await teamMember(f, 'access-admins', { 'manage-organization-access': true });
    const flags = await api.patch(
      `${P}/teams/${open}`,
      patchBody({ 'organization-access': { 'read-workspaces': true } }),
      { token: admins.token },
    );
    expect(flags.status, flags.text).toBe(200);
    expect(flags.body.data.attributes['organization-access']['read-workspaces']).toBe(true);
    expect((await api.patch(`${P}/teams/${open}`, patchBody({ name: 'shut' }), { token: admins.token })).status).toBe(
      404,
    );
    // With access-secret-teams they reach secret teams too.
    expect((await api.get(`${P}/teams/${secret}`, { token: admins.token })).status).toBe(404);
    const seers = await teamMember(f, 'seers', { 'manage-membership': true, 'access-secret-teams': true });
    expect((await api.get(`${P}/teams/${secret}`, { token: seers.token })).status).toBe(200);
    expect(
      (await api.post(`${P}/teams/${secret}/relationships/users`, users('seers-user'), { token: seers.token })).status,
    ).toBe(204);
  });

  it('manage-agent-pools and manage-vcs-settings grant agent pools and SSH keys', async () => {
    const pools = await teamMember(f, 'pools', { 'manage-agent-pools': true });
    const vcs = await teamMember(f, 'vcs', { 'manage-vcs-settings': true });
    const pool = (token: string) =>
      api.post(
        `${P}/organizations/acme/agent-pools`,
        { data: { type: 'agent-pools', attributes: { name: `p-${token.slice(-6)}` } } },
        { token },
      );
    const key = (token: string) =>
      api.post(
        `${P}/organizations/acme/ssh-keys`,
        { data: { type: 'ssh-keys', attributes: { name: `k-${token.slice(-6)}`, value: 'secret' } } },
        { token },
      );
    expect((await pool(pools.token)).status).toBe(201);
    expect((await pool(vcs.token)).status).toBe(404);
    expect((await key(vcs.token)).status).toBe(201);
    expect((await key(pools.token)).status).toBe(404);
  });
});
