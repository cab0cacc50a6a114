import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { accessFixture, grantWorkspace, teamMember, type AccessFixture } from '../../helpers/access.js';
import { sharedDatabase } from '../../helpers/store.js';
import { openStore, type Store } from '../../../src/store/open.js';
import { LOCAL_SITE_ADMIN } from '../../../src/domain/permissions/actor.js';
import { authenticate, createUserToken } from '../../../src/services/identity/tokens.js';
import { cachedFacts, generationFor } from '../../../src/services/identity/auth-cache.js';
import { securityGeneration } from '../../../src/store/security-generation.js';
import { writeTransaction } from '../../../src/store/transaction.js';

/**
 * The cache of authentication and access facts (services/identity/auth-cache.ts, migration 022) never
 * answers stale facts: every change takes effect on the next request, also when another store
 * (another process, another `serve` instance) made it. `serve` is the API on store A; the changes
 * are made through the API on store B, a second store on the same database (its own connections),
 * or through A itself.
 */
describe('cached authentication and access facts', () => {
  let shared: { location: string; cleanup: () => Promise<void> };
  let storeA: Store;
  let storeB: Store;
  let serve: TestApi;
  let other: TestApi;
  let f: AccessFixture;

  beforeAll(async () => {
    shared = await sharedDatabase();
    storeA = await openStore(shared.location);
    storeB = await openStore(shared.location);
    serve = await TestApi.on(storeA);
    other = await TestApi.on(storeB);
    f = await accessFixture(other);
  });
  afterAll(async () => {
    await storeA?.close();
    await storeB?.close();
    await shared?.cleanup();
  });

  /** GETs the workspace through `serve` twice (the second answer comes from the warm cache). */
  async function workspaceTwice(token: string) {
    const first = await serve.get(`/api/v2/workspaces/${f.web}`, { token });
    const second = await serve.get(`/api/v2/workspaces/${f.web}`, { token });
    expect(second.status).toBe(first.status);
    return second;
  }

  const generation = async (store: Store) => (await securityGeneration(store.db))!;

  it('keeps facts while nothing changes, and reads them again after a change in another store', async () => {
    let loads = 0;
    const cached = async (db: Store['db']) =>
      cachedFacts(db, await generationFor(db), 'test', 'k', () => Promise.resolve(++loads));
    expect(await cached(storeA.db)).toBe(1);
    expect(await cached(storeA.db)).toBe(1);
    // A write to a table that is not a security table keeps the entry.
    expect((await other.post(`/api/v2/workspaces/${f.web}/actions/lock`, {}, { token: f.owner.token })).status).toBe(
      200,
    );
    expect((await other.post(`/api/v2/workspaces/${f.web}/actions/unlock`, {}, { token: f.owner.token })).status).toBe(
      200,
    );
    expect(await cached(storeA.db)).toBe(1);
    await teamMember(f, 'newcomer');
    expect(await cached(storeA.db)).toBe(2);
    expect(await cached(storeA.db)).toBe(2);
    // Inside a transaction nothing is cached nor answered from the cache.
    await writeTransaction(storeA.db, async (tx) => {
      expect(await cached(tx)).toBe(3);
      expect(await cached(tx)).toBe(4);
    });
  });

  it('refuses a token revoked in another store on the very next request', async () => {
    const user = await serve.userToken('revoked-elsewhere');
    const whoami = () => serve.get('/api/v2/whoami', { token: user.token });
    expect((await whoami()).status).toBe(200);
    expect((await whoami()).status).toBe(200);
    const tokens = await other.get(`/api/v2/users/${user.userId}/authentication-tokens`);
    expect(tokens.status).toBe(200);
    expect((await other.delete(`/api/v2/authentication-tokens/${tokens.body.data[0].id}`)).status).toBe(204);
    expect((await whoami()).status).toBe(401);
  });

  it('refuses a token revoked through the same store on the very next request', async () => {
    const user = await serve.userToken('revoked-here');
    const whoami = () => serve.get('/api/v2/whoami', { token: user.token });
    expect((await whoami()).status).toBe(200);
    expect((await whoami()).status).toBe(200);
    const id = (await serve.get(`/api/v2/users/${user.userId}/authentication-tokens`)).body.data[0].id;
    expect((await serve.delete(`/api/v2/authentication-tokens/${id}`, { token: user.token })).status).toBe(204);
    expect((await whoami()).status).toBe(401);
  });

  it('stops authenticating a cached token once it expires', async () => {
    const ctx = TestApi.ctx(storeA, LOCAL_SITE_ADMIN);
    const { userId } = await serve.userToken('expiring');
    const now = new Date();
    const expires = new Date(now.getTime() + 3_600_000);
    const { token } = await createUserToken(ctx, userId, null, expires.toISOString());
    const before = await generation(storeA);
    expect(await authenticate(storeA.db, token!, now)).toMatchObject({ kind: 'user', userId });
    expect(await authenticate(storeA.db, token!, now)).toMatchObject({ kind: 'user', userId });
    expect(await authenticate(storeA.db, token!, expires)).toBeNull();
    expect(await authenticate(storeA.db, token!, new Date(expires.getTime() + 1000))).toBeNull();
    // Nothing changed in between: the last answers came from the cache, and expiry was checked anyway.
    expect(await generation(storeA)).toEqual(before);
  });

  it('takes a lowered workspace grant into account on the next request', async () => {
    const dev = await teamMember(f, 'lowered');
    const grant = await grantWorkspace(f, dev.teamId, f.web, 'write');
    expect((await workspaceTwice(dev.token)).body.data.attributes.permissions['can-lock']).toBe(true);
    const lowered = await other.patch(
      `/api/v2/team-workspaces/${grant}`,
      { data: { type: 'team-workspaces', attributes: { access: 'read' } } },
      { token: f.owner.token },
    );
    expect(lowered.status, lowered.text).toBe(200);
    const after = await serve.get(`/api/v2/workspaces/${f.web}`, { token: dev.token });
    expect(after.status).toBe(200);
    expect(after.body.data.attributes.permissions['can-lock']).toBe(false);
    expect((await serve.post(`/api/v2/workspaces/${f.web}/actions/lock`, {}, { token: dev.token })).status).not.toBe(
      200,
    );
  });

  it('takes a removed team membership into account on the next request', async () => {
    const dev = await teamMember(f, 'removed');
    await grantWorkspace(f, dev.teamId, f.web, 'read');
    expect((await workspaceTwice(dev.token)).status).toBe(200);
    const removed = await other.delete(`/api/v2/teams/${dev.teamId}/relationships/users`, {
      token: f.owner.token,
      body: { data: [{ type: 'users', id: 'removed-user' }] },
    });
    expect(removed.status, removed.text).toBe(204);
    expect((await serve.get(`/api/v2/workspaces/${f.web}`, { token: dev.token })).status).toBe(404);
  });

  it("takes a deleted team into account on the next request, its members' and its token's", async () => {
    const dev = await teamMember(f, 'deleted');
    await grantWorkspace(f, dev.teamId, f.web, 'read');
    const teamToken = await other.post(`/api/v2/teams/${dev.teamId}/authentication-token`, undefined, {
      token: f.owner.token,
    });
    expect(teamToken.status, teamToken.text).toBe(201);
    const token = teamToken.body.data.attributes.token as string;
    expect((await workspaceTwice(dev.token)).status).toBe(200);
    expect((await workspaceTwice(token)).status).toBe(200);
    expect((await other.delete(`/api/v2/teams/${dev.teamId}`, { token: f.owner.token })).status).toBe(204);
    expect((await serve.get(`/api/v2/workspaces/${f.web}`, { token: dev.token })).status).toBe(404);
    expect((await serve.get(`/api/v2/workspaces/${f.web}`, { token })).status).toBe(401);
  });

  it('moves the generation when a deleted workspace takes its team grants along (foreign-key cascade)', async () => {
    const dev = await teamMember(f, 'cascade');
    const ws = await other.post(
      '/api/v2/organizations/acme/workspaces',
      { data: { type: 'workspaces', attributes: { name: 'doomed' } } },
      { token: f.owner.token },
    );
    expect(ws.status, ws.text).toBe(201);
    const id = ws.body.data.id as string;
    await grantWorkspace(f, dev.teamId, id, 'read');
    expect((await serve.get(`/api/v2/workspaces/${id}`, { token: dev.token })).status).toBe(200);
    const before = await generation(storeA);
    // Straight on the database, so that only the cascade can move it (the API would also write audit rows).
    await storeB.db.deleteFrom('workspaces').where('id', '=', id).execute();
    expect(await storeB.db.selectFrom('team_workspaces').select('id').where('workspace_id', '=', id).execute()).toEqual(
      [],
    );
    const after = await generation(storeA);
    expect(after.epoch).toBe(before.epoch);
    expect(after.n).toBeGreaterThan(before.n);
  });

  it("refuses an organization's tokens once the organization is deleted in another store", async () => {
    expect((await other.createOrg('doomed-org', f.owner.token)).status).toBe(201);
    const orgToken = await other.post('/api/v2/organizations/doomed-org/authentication-token', undefined, {
      token: f.owner.token,
    });
    expect(orgToken.status, orgToken.text).toBe(201);
    const token = orgToken.body.data.attributes.token as string;
    const read = () => serve.get('/api/v2/organizations/doomed-org', { token });
    expect((await read()).status).toBe(200);
    expect((await read()).status).toBe(200);
    expect((await serve.get('/api/v2/organizations/doomed-org', { token: f.owner.token })).status).toBe(200);
    expect((await other.delete('/api/v2/organizations/doomed-org', { token: f.owner.token })).status).toBe(204);
    expect((await read()).status).toBe(401);
    expect((await serve.get('/api/v2/organizations/doomed-org', { token: f.owner.token })).status).toBe(404);
  });
});
