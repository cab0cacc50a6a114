import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { joinOrganization } from '../../helpers/members.js';

const teamBody = (name: string, access: Record<string, boolean> = {}, extra: Record<string, unknown> = {}) => ({
  data: { type: 'teams', attributes: { name, 'organization-access': access, ...extra } },
});
const users = (...names: string[]) => ({ data: names.map((id) => ({ type: 'users', id })) });

describe('teams, memberships and tokens', () => {
  let api: TestApi;
  let owner: { userId: string; token: string };
  let member: { userId: string; token: string };
  let outsider: { userId: string; token: string };
  let ownersId: string;

  beforeAll(async () => {
    api = await TestApi.create();
    owner = await api.userToken('olga');
    member = await api.userToken('max');
    outsider = await api.userToken('otto');
    expect((await api.createOrg('acme', owner.token)).status).toBe(201);
    const list = await api.get('/api/v2/organizations/acme/teams', { token: owner.token });
    ownersId = list.body.data.find((t: any) => t.attributes.name === 'owners').id;
  });
  afterAll(() => api.close());

  it('lists the owners team, with its creator as member and full access', async () => {
    const res = await api.get(`/api/v2/teams/${ownersId}`, { token: owner.token });
    expect(res.status).toBe(200);
    expect(res.body.data.attributes).toMatchObject({ name: 'owners', 'is-owners': true, 'users-count': 1 });
    expect(res.body.data.relationships.users.data).toEqual([{ id: owner.userId, type: 'users' }]);
  });

  it('creates a team with organization access (201) and rejects a duplicate name (422)', async () => {
    const res = await api.post(
      '/api/v2/organizations/acme/teams',
      teamBody('platform', { 'manage-workspaces': true }),
      { token: owner.token },
    );
    expect(res.status).toBe(201);
    expect(res.body.data.id).toMatch(/^team-[A-Za-z0-9]{16}$/);
    expect(res.body.data.attributes['organization-access']).toEqual({
      'manage-policies': false,
      'manage-policy-overrides': false,
      'manage-workspaces': true,
      'manage-vcs-settings': false,
      'manage-providers': false,
      'manage-modules': false,
      'manage-run-tasks': false,
      'manage-projects': false,
      'read-workspaces': false,
      'read-projects': false,
      'manage-membership': false,
      'manage-teams': false,
      'manage-organization-access': false,
      'access-secret-teams': false,
      'manage-agent-pools': false,
    });
    const dup = await api.post('/api/v2/organizations/acme/teams', teamBody('platform'), { token: owner.token });
    expect(dup.status).toBe(422);
    expect(dup.body.errors[0]).toMatchObject({
      status: '422',
      title: 'invalid attribute',
      detail: 'Name has already been taken',
    });
  });

  it('validates names and access types', async () => {
    const bad = await api.post('/api/v2/organizations/acme/teams', teamBody('bad:name'), { token: owner.token });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].source.pointer).toBe('/data/attributes/name');
    const badAccess = await api.post(
      '/api/v2/organizations/acme/teams',
      teamBody('x', { 'manage-projects': 'yes' } as any),
      { token: owner.token },
    );
    expect(badAccess.status).toBe(422);
  });

  it('adds members by username; unknown usernames and non-members change nothing (the same 404)', async () => {
    const team = (await api.post('/api/v2/organizations/acme/teams', teamBody('devs'), { token: owner.token })).body
      .data;
    // max exists but is not a member of acme yet: answered exactly as a username nobody has.
    const notMember = await api.post(`/api/v2/teams/${team.id}/relationships/users`, users('max'), {
      token: owner.token,
    });
    const unknown = await api.post(`/api/v2/teams/${team.id}/relationships/users`, users('nobody'), {
      token: owner.token,
    });
    expect(notMember.status).toBe(404);
    expect(unknown.status).toBe(404);
    expect(notMember.body.errors[0].detail.replace('max', 'X')).toBe(
      unknown.body.errors[0].detail.replace('nobody', 'X'),
    );
    await joinOrganization(api, 'acme', 'max', member.token, owner.token);
    const missing = await api.post(`/api/v2/teams/${team.id}/relationships/users`, users('max', 'nobody'), {
      token: owner.token,
    });
    expect(missing.status).toBe(404);
    expect(
      (await api.get(`/api/v2/teams/${team.id}`, { token: owner.token })).body.data.attributes['users-count'],
    ).toBe(0);
    expect(
      (await api.post(`/api/v2/teams/${team.id}/relationships/users`, users('max'), { token: owner.token })).status,
    ).toBe(204);
    // Membership makes max a member of the organization: he can read it now.
    expect((await api.get('/api/v2/organizations/acme', { token: member.token })).status).toBe(200);
    // A secret team is visible to its members, not to other members.
    expect((await api.get(`/api/v2/teams/${team.id}`, { token: member.token })).status).toBe(200);
    const plat = (await api.get('/api/v2/organizations/acme/teams', { token: member.token })).body.data.map(
      (t: any) => t.attributes.name,
    );
    expect(plat).toEqual(['devs']);
  });

  it('lets only owners manage teams (404 for members, 404 for outsiders)', async () => {
    expect(
      (await api.post('/api/v2/organizations/acme/teams', teamBody('sneaky'), { token: member.token })).status,
    ).toBe(404);
    expect(
      (await api.post('/api/v2/organizations/acme/teams', teamBody('sneaky'), { token: outsider.token })).status,
    ).toBe(404);
    expect((await api.get(`/api/v2/teams/${ownersId}`, { token: outsider.token })).status).toBe(404);
  });

  it('never deletes the owners team nor changes its access; deletes other teams', async () => {
    expect((await api.delete(`/api/v2/teams/${ownersId}`, { token: owner.token })).status).toBe(403);
    const change = await api.patch(`/api/v2/teams/${ownersId}`, teamBody('owners', { 'manage-projects': false }), {
      token: owner.token,
    });
    expect(change.status).toBe(422);
    const t = (await api.post('/api/v2/organizations/acme/teams', teamBody('temp'), { token: owner.token })).body.data;
    expect((await api.delete(`/api/v2/teams/${t.id}`, { token: owner.token })).status).toBe(204);
    expect((await api.get(`/api/v2/teams/${t.id}`, { token: owner.token })).status).toBe(404);
  });

  it('refuses to remove the last owner', async () => {
    const res = await api.delete(`/api/v2/teams/${ownersId}/relationships/users`, {
      token: owner.token,
      body: users('olga'),
    });
    expect(res.status).toBe(422);
    expect((await api.get('/api/v2/organizations/acme', { token: owner.token })).status).toBe(200);
  });

  it('team tokens act as the team, in its organization only; regenerating revokes the old one', async () => {
    const team = (await api.get('/api/v2/organizations/acme/teams', { token: owner.token })).body.data.find(
      (t: any) => t.attributes.name === 'platform',
    );
    const first = await api.post(`/api/v2/teams/${team.id}/authentication-token`, undefined, { token: owner.token });
    expect(first.status).toBe(201);
    const t1 = first.body.data.attributes.token;
    const me = await api.get('/api/v2/whoami', { token: t1 });
    expect(me.body.data.attributes).toMatchObject({ kind: 'team', 'team-id': team.id, organization: 'acme' });
    expect((await api.get('/api/v2/organizations/acme', { token: t1 })).status).toBe(200);
    await api.createOrg('other');
    expect((await api.get('/api/v2/organizations/other', { token: t1 })).status).toBe(404);
    const t2 = (await api.post(`/api/v2/teams/${team.id}/authentication-token`, undefined, { token: owner.token })).body
      .data.attributes.token;
    expect((await api.get('/api/v2/whoami', { token: t1 })).status).toBe(401);
    expect((await api.get('/api/v2/whoami', { token: t2 })).status).toBe(200);
    expect((await api.delete(`/api/v2/teams/${team.id}/authentication-token`, { token: owner.token })).status).toBe(
      204,
    );
    expect((await api.get('/api/v2/whoami', { token: t2 })).status).toBe(401);
  });

  it('organization tokens: owners mint them, they see only their organization, and cannot mint themselves', async () => {
    expect(
      (await api.post('/api/v2/organizations/acme/authentication-token', undefined, { token: member.token })).status,
    ).toBe(404);
    const res = await api.post('/api/v2/organizations/acme/authentication-token', undefined, { token: owner.token });
    expect(res.status).toBe(201);
    const orgToken = res.body.data.attributes.token;
    const list = await api.get('/api/v2/organizations', { token: orgToken });
    expect(list.body.data.map((o: any) => o.id)).toEqual(['acme']);
    expect(
      (await api.post('/api/v2/organizations/acme/authentication-token', undefined, { token: orgToken })).status,
    ).toBe(404);
    expect(
      (
        await api.post(
          '/api/v2/organizations',
          { data: { type: 'organizations', attributes: { name: 'n', email: 'n@n.n' } } },
          { token: orgToken },
        )
      ).status,
    ).toBe(403);
    expect((await api.delete('/api/v2/organizations/acme/authentication-token', { token: owner.token })).status).toBe(
      204,
    );
    expect((await api.get('/api/v2/organizations', { token: orgToken })).status).toBe(401);
  });

  it('user tokens are listed without secrets and revoking one takes effect on the next request', async () => {
    const made = await api.post(
      `/api/v2/users/${member.userId}/authentication-tokens`,
      { data: { type: 'authentication-tokens', attributes: { description: 'ci' } } },
      { token: member.token },
    );
    expect(made.status).toBe(201);
    const list = await api.get(`/api/v2/users/${member.userId}/authentication-tokens`, { token: member.token });
    expect(list.status).toBe(200);
    expect(list.body.data.length).toBe(2);
    expect(list.text).not.toContain(made.body.data.attributes.token);
    expect(list.body.data.every((t: any) => t.attributes.token === null)).toBe(true);
    expect(
      (await api.get(`/api/v2/users/${member.userId}/authentication-tokens`, { token: outsider.token })).status,
    ).toBe(404);
    expect(
      (await api.delete(`/api/v2/authentication-tokens/${made.body.data.id}`, { token: outsider.token })).status,
    ).toBe(404);
    const newToken = made.body.data.attributes.token;
    expect((await api.get('/api/v2/whoami', { token: newToken })).status).toBe(200);
    expect(
      (await api.delete(`/api/v2/authentication-tokens/${made.body.data.id}`, { token: member.token })).status,
    ).toBe(204);
    expect((await api.get('/api/v2/whoami', { token: newToken })).status).toBe(401);
  });

  it('whoami describes users and the site administrator', async () => {
    expect((await api.get('/api/v2/whoami', { token: owner.token })).body.data.attributes).toMatchObject({
      kind: 'user',
      username: 'olga',
      'site-admin': false,
    });
    // The site administrator's token belongs to the site-administrator user admin.
    expect((await api.get('/api/v2/whoami')).body.data.attributes).toMatchObject({
      kind: 'user',
      username: 'admin',
      'site-admin': true,
    });
  });
});
