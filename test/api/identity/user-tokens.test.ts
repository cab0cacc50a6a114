import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';

const tokenBody = (attributes: Record<string, unknown>) => ({ data: { type: 'authentication-tokens', attributes } });

/** The user tokens API as go-tfe's UserTokens reads it. */
describe('user tokens', () => {
  let api: TestApi;
  let ann: { userId: string; token: string };
  let eve: { userId: string; token: string };

  beforeAll(async () => {
    api = await TestApi.create();
    ann = await api.userToken('ann');
    eve = await api.userToken('eve');
  });
  afterAll(() => api.close());

  it('creates a token with a description and an expiry; reading it answers the same document without the secret', async () => {
    const expiry = new Date(Date.now() + 86_400_000);
    expiry.setUTCMilliseconds(0);
    const made = await api.post(
      `/api/v2/users/${ann.userId}/authentication-tokens`,
      tokenBody({ description: 'laptop', 'expired-at': expiry.toISOString().replace('.000Z', 'Z') }),
      { token: ann.token },
    );
    expect(made.status).toBe(201);
    const doc = made.body.data;
    expect(doc).toMatchObject({
      type: 'authentication-tokens',
      attributes: {
        description: 'laptop',
        'created-at': expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        'last-used-at': null,
        'expired-at': expiry.toISOString(),
        token: expect.stringMatching(/^berth\./),
      },
      relationships: { 'created-by': { data: { type: 'users', id: ann.userId } } },
    });
    const read = await api.get(`/api/v2/authentication-tokens/${doc.id}`, { token: ann.token });
    expect(read.status).toBe(200);
    const { token: _secret, ...withoutSecret } = doc.attributes;
    expect(read.body.data).toEqual({ ...doc, attributes: { ...withoutSecret, token: null } });
    // The new token works, and acts as ann.
    const me = await api.get('/api/v2/account/details', { token: doc.attributes.token });
    expect(me.body.data.id).toBe(ann.userId);
  });

  it('a token without an expiry has expired-at null; the list holds both, never a secret', async () => {
    const made = await api.post(`/api/v2/users/${ann.userId}/authentication-tokens`, undefined, { token: ann.token });
    expect(made.status).toBe(201);
    expect(made.body.data.attributes['expired-at']).toBeNull();
    expect(made.body.data.attributes.description).toBeNull();
    const list = await api.get(`/api/v2/users/${ann.userId}/authentication-tokens`, { token: ann.token });
    expect(list.status).toBe(200);
    expect(list.body.data.map((t: any) => t.id)).toContain(made.body.data.id);
    expect(list.body.data.every((t: any) => t.attributes.token === null)).toBe(true);
  });

  it('refuses an expiry that is not a time, or not in the future (422, nothing stored)', async () => {
    const count = async () =>
      (await api.get(`/api/v2/users/${ann.userId}/authentication-tokens`, { token: ann.token })).body.data.length;
    const before = await count();
    for (const bad of ['tomorrow', '2020-01-01T00:00:00Z', 42, '2030-02-31T00:00:00Z']) {
      const res = await api.post(
        `/api/v2/users/${ann.userId}/authentication-tokens`,
        tokenBody({ 'expired-at': bad }),
        { token: ann.token },
      );
      expect(res.status, String(bad)).toBe(422);
      expect(res.body.errors[0].source.pointer).toBe('/data/attributes/expired-at');
    }
    expect(await count()).toBe(before);
  });

  it('an expired token is refused like a revoked one (401)', async () => {
    const made = await api.post(
      `/api/v2/users/${eve.userId}/authentication-tokens`,
      tokenBody({ 'expired-at': new Date(Date.now() + 60_000).toISOString() }),
      { token: eve.token },
    );
    const secret = made.body.data.attributes.token;
    expect((await api.get('/api/v2/whoami', { token: secret })).status).toBe(200);
    await api.store.db
      .updateTable('tokens')
      .set({ expired_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', made.body.data.id)
      .execute();
    expect((await api.get('/api/v2/whoami', { token: secret })).status).toBe(401);
    // Still listed (and revocable) by its owner.
    const list = await api.get(`/api/v2/users/${eve.userId}/authentication-tokens`, { token: eve.token });
    expect(list.body.data.map((t: any) => t.id)).toContain(made.body.data.id);
  });

  it("reading or deleting another user's token is a 404; its owner and site administrators may", async () => {
    const made = await api.post(`/api/v2/users/${ann.userId}/authentication-tokens`, undefined, { token: ann.token });
    const id = made.body.data.id;
    expect((await api.get(`/api/v2/authentication-tokens/${id}`, { token: eve.token })).status).toBe(404);
    expect((await api.delete(`/api/v2/authentication-tokens/${id}`, { token: eve.token })).status).toBe(404);
    expect((await api.get(`/api/v2/authentication-tokens/${id}`)).status).toBe(200);
    expect((await api.delete(`/api/v2/authentication-tokens/${id}`, { token: ann.token })).status).toBe(204);
    expect((await api.get(`/api/v2/authentication-tokens/${id}`, { token: ann.token })).status).toBe(404);
    expect((await api.get('/api/v2/authentication-tokens/at-nonexistent0000', { token: ann.token })).status).toBe(404);
  });

  it("the site administrator's minted tokens are tokens of the admin user", async () => {
    const admin = (await api.get('/api/v2/account/details')).body.data;
    const made = await api.post('/api/v2/admin/authentication-tokens', tokenBody({ description: 'CI' }));
    expect(made.status).toBe(201);
    expect(made.body.data.relationships['created-by'].data).toEqual({ type: 'users', id: admin.id });
    const list = await api.get(`/api/v2/users/${admin.id}/authentication-tokens`);
    expect(list.body.data.map((t: any) => t.attributes.description)).toEqual(['tests', 'CI']);
  });
});
