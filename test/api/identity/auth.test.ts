import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';

const sha256 = (s: string) => createHash('sha256').update(s, 'utf8').digest('hex');
const orgNames = (body: any): string[] => body.data.map((o: any) => o.id);

describe('authentication and authorization', () => {
  let api: TestApi;
  let alice: { userId: string; token: string };
  let bob: { userId: string; token: string };

  beforeAll(async () => {
    api = await TestApi.create();
    alice = await api.userToken('alice');
    bob = await api.userToken('bob');
    expect((await api.createOrg('acme')).status).toBe(201);
  });
  afterAll(() => api.close());

  it.each([
    ['no Authorization header', {}],
    ['an unknown token', { Authorization: 'Bearer not-a-real-token' }],
    ['a malformed header', { Authorization: 'Basic xyz' }],
  ])('rejects %s with a JSON:API 401', async (_label, headers) => {
    const res = await api.request('GET', '/api/v2/organizations', { token: null, headers });
    expect(res.status).toBe(401);
    expect(res.headers.get('Content-Type')).toBe('application/vnd.api+json');
    expect(res.body.errors[0].status).toBe('401');
  });

  it('accepts a site-admin token', async () => {
    const res = await api.get('/api/v2/organizations');
    expect(res.status).toBe(200);
    expect(orgNames(res.body)).toContain('acme');
  });

  it('hides an organization from a user who is not a member', async () => {
    expect((await api.get('/api/v2/organizations/acme', { token: bob.token })).status).toBe(404);
    const list = await api.get('/api/v2/organizations', { token: bob.token });
    expect(list.status).toBe(200);
    expect(orgNames(list.body)).not.toContain('acme');
  });

  it('makes the creating user a member of the owners team', async () => {
    expect((await api.createOrg('alice-org', alice.token)).status).toBe(201);
    const owners = await api.store.db
      .selectFrom('teams')
      .innerJoin('organizations', 'organizations.id', 'teams.organization_id')
      .innerJoin('team_members', 'team_members.team_id', 'teams.id')
      .select(['teams.name', 'teams.is_owners', 'team_members.user_id'])
      .where('organizations.name', '=', 'alice-org')
      .execute();
    expect(owners).toEqual([{ name: 'owners', is_owners: 1, user_id: alice.userId }]);
    expect((await api.get('/api/v2/organizations/alice-org', { token: alice.token })).status).toBe(200);
    expect(orgNames((await api.get('/api/v2/organizations', { token: alice.token })).body)).toEqual(['alice-org']);
    expect((await api.get('/api/v2/organizations/alice-org', { token: bob.token })).status).toBe(404);
  });

  it('stores tokens only as SHA-256 hashes', async () => {
    const rows = await api.store.db.selectFrom('tokens').selectAll().execute();
    const raw = [api.adminToken, alice.token, bob.token];
    for (const row of rows) {
      const text = JSON.stringify(row);
      for (const token of raw) expect(text).not.toContain(token);
    }
    const hashes = rows.map((r) => r.token_hash);
    for (const token of raw) expect(hashes).toContain(sha256(token));
  });

  it('lets a user mint a token for itself, but not for another user', async () => {
    const res = await api.post(`/api/v2/users/${alice.userId}/authentication-tokens`, undefined, {
      token: alice.token,
    });
    expect(res.status).toBe(201);
    expect(res.body.data.type).toBe('authentication-tokens');
    const minted = res.body.data.attributes.token;
    expect(typeof minted).toBe('string');
    expect((await api.get('/api/v2/organizations/alice-org', { token: minted })).status).toBe(200);
    const row = await api.store.db
      .selectFrom('tokens')
      .selectAll()
      .where('id', '=', res.body.data.id)
      .executeTakeFirstOrThrow();
    expect(row.token_hash).toBe(sha256(minted));

    const other = await api.post(`/api/v2/users/${alice.userId}/authentication-tokens`, undefined, {
      token: bob.token,
    });
    expect(other.status).toBe(404);
  });

  describe('POST /api/v2/admin/users', () => {
    const user = (username: string) => ({
      data: { type: 'users', attributes: { username, email: `${username}@example.com` } },
    });

    it('is hidden from non-admin users', async () => {
      const res = await api.post('/api/v2/admin/users', user('carol'), { token: alice.token });
      expect(res.status).toBe(404);
      expect(
        await api.store.db.selectFrom('users').select('id').where('username', '=', 'carol').executeTakeFirst(),
      ).toBeUndefined();
    });

    it('creates a user for the admin', async () => {
      const res = await api.post('/api/v2/admin/users', user('carol'));
      expect(res.status).toBe(201);
      expect(res.body.data.type).toBe('users');
      expect(res.body.data.attributes).toMatchObject({ username: 'carol', email: 'carol@example.com' });
    });

    it('rejects a duplicate username', async () => {
      const res = await api.post('/api/v2/admin/users', user('carol'));
      expect(res.status).toBe(422);
      expect(res.body.errors[0]).toMatchObject({
        status: '422',
        title: 'invalid attribute',
        detail: 'Username has already been taken',
      });
    });
  });
});
