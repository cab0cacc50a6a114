import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';

/** Who a token is: the account API (what go-tfe's Users.ReadCurrent reads), and locks naming a user. */
describe('identity: the account of a token', () => {
  let api: TestApi;
  let bob: { userId: string; token: string };

  beforeAll(async () => {
    api = await TestApi.create();
    bob = await api.userToken('bob');
    expect((await api.createOrg('acme')).status).toBe(201);
  });
  afterAll(() => api.close());

  it("the site administrator's token belongs to the site-administrator user admin", async () => {
    const res = await api.get('/api/v2/account/details');
    expect(res.status).toBe(200);
    const doc = res.body.data;
    expect(doc.type).toBe('users');
    expect(doc.id).toMatch(/^user-[A-Za-z0-9]{16}$/);
    expect(doc.attributes).toEqual({
      username: 'admin',
      email: 'admin@localhost',
      'avatar-url': expect.stringMatching(/^https:\/\/www\.gravatar\.com\/avatar\/[0-9a-f]{64}\?s=100&d=mm$/),
      'is-site-admin': true,
      'is-admin': true,
      'is-service-account': false,
      'is-sso-login': false,
      'two-factor': { enabled: false, verified: false },
      'unconfirmed-email': null,
      'v2-only': false,
      'created-at': expect.stringMatching(/Z$/),
      permissions: {
        'can-create-organizations': true,
        'can-change-email': true,
        'can-change-username': true,
        'can-manage-user-tokens': true,
        'can-view2fa-settings': false,
        'can-manage-hcp-account': false,
      },
    });
    expect(doc.relationships['authenticated-resource'].data).toEqual({ type: 'users', id: doc.id });
    // The admin user is the creator, owner and member of the organizations it creates.
    const members = await api.get('/api/v2/organizations/acme/organization-memberships');
    expect(members.body.data.map((m: any) => [m.relationships.user.data.id, m.attributes.status])).toEqual([
      [doc.id, 'active'],
    ]);
  });

  it("a user token's account is that user", async () => {
    const res = await api.get('/api/v2/account/details', { token: bob.token });
    expect(res.body.data).toMatchObject({
      id: bob.userId,
      type: 'users',
      attributes: { username: 'bob', email: 'bob@example.com', 'is-site-admin': false },
    });
  });

  it('a team or organization token answers a service user standing for it', async () => {
    const team = (await api.get('/api/v2/organizations/acme/teams')).body.data[0];
    const teamToken = (await api.post(`/api/v2/teams/${team.id}/authentication-token`)).body.data.attributes.token;
    const asTeam = (await api.get('/api/v2/account/details', { token: teamToken })).body.data;
    expect(asTeam).toMatchObject({
      type: 'users',
      attributes: { 'is-service-account': true, email: null, username: `api-team-${team.id}` },
      relationships: { 'authenticated-resource': { data: { type: 'teams', id: team.id } } },
    });
    const orgToken = (await api.post('/api/v2/organizations/acme/authentication-token')).body.data.attributes.token;
    const asOrg = (await api.get('/api/v2/account/details', { token: orgToken })).body.data;
    expect(asOrg).toMatchObject({
      attributes: { 'is-service-account': true, username: 'api-org-acme' },
      relationships: { 'authenticated-resource': { data: { type: 'organizations', id: 'acme' } } },
    });
    // Service users have no account to change.
    const update = await api.patch(
      '/api/v2/account/update',
      { data: { type: 'users', attributes: { username: 'x' } } },
      { token: teamToken },
    );
    expect(update.status).toBe(404);
  });

  it('PATCH /account/update changes the own username and email; a taken name or a bad email is a 422', async () => {
    const body = (attributes: Record<string, unknown>) => ({ data: { type: 'users', attributes } });
    const res = await api.patch('/api/v2/account/update', body({ username: 'bobby', email: 'b@example.org' }), {
      token: bob.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.data.attributes).toMatchObject({ username: 'bobby', email: 'b@example.org' });
    expect((await api.get('/api/v2/whoami', { token: bob.token })).body.data.attributes.username).toBe('bobby');

    const taken = await api.patch('/api/v2/account/update', body({ username: 'admin' }), { token: bob.token });
    expect(taken.status).toBe(422);
    expect(taken.body.errors[0]).toMatchObject({
      detail: 'Username has already been taken',
      source: { pointer: '/data/attributes/username' },
    });
    const bad = await api.patch('/api/v2/account/update', body({ email: 'nope', username: 'bad name' }), {
      token: bob.token,
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors.map((e: any) => e.source.pointer).sort()).toEqual([
      '/data/attributes/email',
      '/data/attributes/username',
    ]);
    const after = (await api.get('/api/v2/account/details', { token: bob.token })).body.data.attributes;
    expect(after).toMatchObject({ username: 'bobby', email: 'b@example.org' });
    // Nothing to change is no change.
    expect((await api.patch('/api/v2/account/update', body({}), { token: bob.token })).status).toBe(200);
    expect((await api.patch('/api/v2/account/update', body({ username: 'bob' }), { token: bob.token })).status).toBe(
      200,
    );
  });

  it("a lock taken with the site administrator's token is held by the admin user (locked-by users)", async () => {
    const ws = await api.post('/api/v2/organizations/acme/workspaces', {
      data: { type: 'workspaces', attributes: { name: 'web' } },
    });
    const locked = await api.post(`/api/v2/workspaces/${ws.body.data.id}/actions/lock`, {});
    expect(locked.status).toBe(200);
    const admin = (await api.get('/api/v2/account/details')).body.data;
    expect(locked.body.data.relationships['locked-by'].data).toEqual({ type: 'users', id: admin.id });
  });
});
