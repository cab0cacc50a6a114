import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessFixture, teamMember, type AccessFixture } from '../../helpers/access.js';
import { TestApi } from '../../helpers/api.js';

/** `include=locked_by`, and who may learn the name of a lock holder (docs/api.md "Lock holders"). */
describe('include=locked_by and the names of lock holders', () => {
  let api: TestApi;
  let f: AccessFixture;
  let reader: { token: string; teamId: string; userId: string };
  let locker: { token: string; teamId: string; userId: string };
  let teamToken: string;
  let stranger: { userId: string; token: string };
  let n = 0;

  async function workspace(): Promise<string> {
    const res = await api.post(
      '/api/v2/organizations/acme/workspaces',
      { data: { type: 'workspaces', attributes: { name: `held-${++n}` } } },
      { token: f.owner.token },
    );
    expect(res.status, res.text).toBe(201);
    return res.body.data.id;
  }
  const lock = async (id: string, token: string) => {
    const res = await api.post(`/api/v2/workspaces/${id}/actions/lock`, { reason: 'migration' }, { token });
    expect(res.status, res.text).toBe(200);
  };
  const included = (body: any) => (body.included ?? []).map((r: any) => `${r.type}/${r.id}`);

  beforeAll(async () => {
    api = await TestApi.create();
    f = await accessFixture(api);
    reader = await teamMember(f, 'readers', { 'read-workspaces': true });
    locker = await teamMember(f, 'lockers', { 'manage-workspaces': true });
    const token = await api.post(`/api/v2/teams/${locker.teamId}/authentication-token`, undefined, {
      token: f.owner.token,
    });
    expect(token.status, token.text).toBe(201);
    teamToken = token.body.data.attributes.token;
    stranger = await api.userToken('stranger');
    expect((await api.createOrg('other', stranger.token)).status).toBe(201);
  });
  afterAll(() => api.close());

  it('includes the user who holds the lock; a reader sees its username and avatar, not its email', async () => {
    const id = await workspace();
    await lock(id, locker.token);
    const res = await api.get(`/api/v2/workspaces/${id}?include=locked_by`, { token: reader.token });
    expect(res.status, res.text).toBe(200);
    expect(res.body.data.relationships['locked-by'].data).toEqual({ id: locker.userId, type: 'users' });
    expect(included(res.body)).toEqual([`users/${locker.userId}`]);
    const user = res.body.included[0];
    expect(user.attributes).toMatchObject({ username: 'lockers-user', 'is-service-account': false });
    expect(user.attributes['avatar-url']).toMatch(/^https:\/\//);
    expect(user.attributes).not.toHaveProperty('email');
    expect(user.attributes).not.toHaveProperty('is-site-admin');
    // The holder itself, and a site administrator, see the details.
    const own = await api.get(`/api/v2/workspaces/${id}?include=locked_by`, { token: locker.token });
    expect(own.body.included[0].attributes.email).toBe('lockers-user@example.com');
    const admin = await api.get(`/api/v2/workspaces/${id}?include=locked_by`);
    expect(admin.body.included[0].attributes.email).toBe('lockers-user@example.com');
  });

  it('includes the team that holds the lock, by name even when the team is secret to the reader', async () => {
    const id = await workspace();
    await lock(id, teamToken);
    const res = await api.get(`/api/v2/workspaces/${id}?include=locked_by`, { token: reader.token });
    expect(res.body.data.relationships['locked-by'].data).toEqual({ id: locker.teamId, type: 'teams' });
    expect(included(res.body)).toEqual([`teams/${locker.teamId}`]);
    expect(res.body.included[0].attributes).toEqual({ name: 'lockers' });
    // The team is still not readable on its own by that reader.
    expect((await api.get(`/api/v2/teams/${locker.teamId}`, { token: reader.token })).status).toBe(404);
    // An owner, who sees every team, gets the whole team.
    const owner = await api.get(`/api/v2/workspaces/${id}?include=locked_by`, { token: f.owner.token });
    expect(owner.body.included[0].attributes).toMatchObject({ name: 'lockers', visibility: 'secret' });
  });

  it('includes the run that holds the lock, once even when it is also the current run', async () => {
    const id = await workspace();
    const run = await api.post(
      '/api/v2/runs',
      { data: { type: 'runs', relationships: { workspace: { data: { type: 'workspaces', id } } } } },
      { token: f.owner.token },
    );
    expect(run.status, run.text).toBe(201);
    const runId = run.body.data.id as string;
    const report = await api.post(
      `/api/v2/runs/${runId}/actions/report`,
      { data: { type: 'run-reports', attributes: { status: 'planning' } } },
      { token: f.owner.token },
    );
    expect(report.status, report.text).toBe(200);
    const res = await api.get(`/api/v2/workspaces/${id}?include=locked_by,current_run`, { token: reader.token });
    expect(res.body.data.relationships['locked-by'].data).toEqual({ id: runId, type: 'runs' });
    expect(included(res.body)).toEqual([`runs/${runId}`]);
  });

  it('includes nothing for an unlocked workspace, and holders in a list', async () => {
    const free = await workspace();
    expect(included((await api.get(`/api/v2/workspaces/${free}?include=locked_by`)).body)).toEqual([]);
    const held = await workspace();
    await lock(held, locker.token);
    const list = await api.get(`/api/v2/organizations/acme/workspaces?include=locked_by&search[name]=held-`, {
      token: reader.token,
    });
    expect(list.status, list.text).toBe(200);
    expect(included(list.body)).toContain(`users/${locker.userId}`);
  });

  it('GET /users/:id: public to those who share an organization, whole to itself and admins, 404 to others', async () => {
    const peer = await api.get(`/api/v2/users/${locker.userId}`, { token: reader.token });
    expect(peer.status, peer.text).toBe(200);
    expect(peer.body.data.attributes.username).toBe('lockers-user');
    expect(peer.body.data.attributes).not.toHaveProperty('email');
    const viaTeamToken = await api.get(`/api/v2/users/${reader.userId}`, { token: teamToken });
    expect(viaTeamToken.status).toBe(200);
    expect(viaTeamToken.body.data.attributes).not.toHaveProperty('email');
    const self = await api.get(`/api/v2/users/${locker.userId}`, { token: locker.token });
    expect(self.body.data.attributes.email).toBe('lockers-user@example.com');
    const admin = await api.get(`/api/v2/users/${locker.userId}`);
    expect(admin.body.data.attributes.email).toBe('lockers-user@example.com');
    // No shared organization: exactly as for an unknown user.
    const hidden = await api.get(`/api/v2/users/${locker.userId}`, { token: stranger.token });
    const unknown = await api.get('/api/v2/users/user-AAAAAAAAAAAAAAAA', { token: stranger.token });
    expect(hidden.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(hidden.body.errors[0].title).toBe(unknown.body.errors[0].title);
  });

  it('locking a workspace the caller already holds: 409 that says so; held by another: names the holder', async () => {
    const id = await workspace();
    await lock(id, locker.token);
    const again = await api.post(`/api/v2/workspaces/${id}/actions/lock`, undefined, { token: locker.token });
    expect(again.status).toBe(409);
    expect(again.body.errors[0].detail).toContain('already locked by you');
    const other = await api.post(`/api/v2/workspaces/${id}/actions/lock`, undefined, { token: f.owner.token });
    expect(other.status).toBe(409);
    expect(other.body.errors[0].detail).toContain(`is locked by User ${locker.userId}`);
  });

  it('the audit trail names the actor of a team or organization token, not only its id', async () => {
    const id = await workspace();
    await lock(id, teamToken);
    const orgToken = await api.post('/api/v2/organizations/acme/authentication-token', undefined, {
      token: f.owner.token,
    });
    expect(orgToken.status, orgToken.text).toBe(201);
    const unlocked = await api.post(`/api/v2/workspaces/${id}/actions/force-unlock`, undefined, {
      token: orgToken.body.data.attributes.token,
    });
    expect(unlocked.status, unlocked.text).toBe(200);
    const trail = await api.get('/api/v2/organizations/acme/audit-trail', { token: f.owner.token });
    const byAction = (action: string) =>
      trail.body.data.find((e: any) => e.attributes.action === action && e.attributes['target-id'] === id).attributes;
    expect(byAction('workspace.lock')).toMatchObject({ 'actor-kind': 'team', 'actor-name': 'lockers' });
    expect(byAction('workspace.force-unlock')).toMatchObject({ 'actor-kind': 'organization', 'actor-name': 'acme' });
  });
});
