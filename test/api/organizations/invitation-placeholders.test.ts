import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertToken } from '../../../src/services/identity/tokens.js';
import { TestApi } from '../../helpers/api.js';

const P = '/api/v2';

/**
 * Invitations make no users (issue 32, item 3): an invitation to an email nobody has is held by
 * a placeholder row (services/organizations/organization-memberships.ts), which must be no user anywhere a user
 * shows: not listed, counted or searched, not found by id, never given or accepted a token, never
 * claimed by someone who only changes their email to it.
 */
describe('an invitation of an email without an account is no user', () => {
  let api: TestApi;
  let eve: { userId: string; token: string };
  let mallory: { userId: string; token: string };
  const emails = Array.from({ length: 20 }, (_, i) => `ghost${i}@corp.test`);
  let memberships: string[] = [];
  let placeholder: string;
  let usersBefore: number;

  const adminList = (query = '') => api.get(`${P}/admin/users${query}`);
  const storedUsers = async () => (await api.store.db.selectFrom('users').select('id').execute()).length;

  beforeAll(async () => {
    api = await TestApi.create();
    eve = await api.userToken('eve');
    mallory = await api.userToken('mallory');
    expect((await api.createOrg('evil', eve.token)).status).toBe(201);
    usersBefore = (await adminList()).body.meta.pagination['total-count'];
    for (const email of emails) {
      const res = await api.post(
        `${P}/organizations/evil/organization-memberships`,
        { data: { type: 'organization-memberships', attributes: { email } } },
        { token: eve.token },
      );
      expect(res.status, res.text).toBe(201);
      memberships.push(res.body.data.id);
    }
    placeholder = (
      await api.store.db.selectFrom('users').select('id').where('email', '=', emails[0]).executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(() => api.close());

  it('the admin users list neither shows nor counts them, and q finds none', async () => {
    const all = await adminList('?page[size]=100');
    expect(all.status).toBe(200);
    expect(all.body.meta.pagination['total-count']).toBe(usersBefore);
    expect(all.body.data.map((u: any) => u.attributes.email)).not.toContain(emails[0]);
    expect(all.body.data.map((u: any) => u.attributes.username)).not.toContain('');
    for (const q of ['ghost', 'corp.test', '~', 'user-', placeholder]) {
      const found = await adminList(`?q=${encodeURIComponent(q)}`);
      expect(found.body.data, q).toEqual([]);
      expect(found.body.meta.pagination['total-count'], q).toBe(0);
    }
  });

  it('is not found by id: GET /users/:id, DELETE /admin/users/:id, its tokens (404 even to a site administrator)', async () => {
    expect((await api.get(`${P}/users/${placeholder}`)).status).toBe(404);
    expect((await api.get(`${P}/users/${placeholder}`, { token: eve.token })).status).toBe(404);
    expect((await api.delete(`${P}/admin/users/${placeholder}`)).status).toBe(404);
    const mint = await api.post(`${P}/users/${placeholder}/authentication-tokens`, {
      data: { type: 'authentication-tokens', attributes: {} },
    });
    expect(mint.status, mint.text).toBe(404);
    expect((await api.get(`${P}/users/${placeholder}/authentication-tokens`)).status).toBe(404);
    // The invitation is still there.
    expect((await api.get(`${P}/organization-memberships/${memberships[0]}`, { token: eve.token })).status).toBe(200);
  });

  it('a token of a placeholder (written by hand) authenticates no one', async () => {
    const forged = await insertToken(api.store.db, new Date().toISOString(), {
      kind: 'user',
      user_id: placeholder,
      team_id: null,
      organization_id: null,
      description: 'forged',
    });
    expect((await api.get(`${P}/account/details`, { token: forged.token! })).status).toBe(401);
    expect((await api.get(`${P}/organization-memberships`, { token: forged.token! })).status).toBe(401);
    await api.store.db.deleteFrom('tokens').where('id', '=', forged.id).execute();
  });

  it('changing your own email to an invited one claims none of its invitations; the account created with it does', async () => {
    const changed = await api.patch(
      `${P}/account/update`,
      { data: { type: 'users', attributes: { email: emails[1] } } },
      { token: mallory.token },
    );
    expect(changed.status, changed.text).toBe(200);
    expect((await api.get(`${P}/organization-memberships`, { token: mallory.token })).body.data).toEqual([]);
    const steal = await api.post(`${P}/organization-memberships/${memberships[1]}/actions/accept`, undefined, {
      token: mallory.token,
    });
    expect(steal.status).toBe(404);
    // The person a site administrator creates with that email gets it.
    const ghost = await api.post(`${P}/admin/users`, {
      data: { type: 'users', attributes: { username: 'ghost1', email: emails[1] } },
    });
    expect(ghost.status, ghost.text).toBe(201);
    const token = (
      await api.post(`${P}/users/${ghost.body.data.id}/authentication-tokens`, {
        data: { type: 'authentication-tokens', attributes: {} },
      })
    ).body.data.attributes.token;
    const mine = await api.get(`${P}/organization-memberships`, { token });
    expect(mine.body.data.map((m: any) => m.id)).toEqual([memberships[1]]);
    expect((await api.get(`${P}/organization-memberships`, { token: mallory.token })).body.data).toEqual([]);
    expect((await adminList()).body.meta.pagination['total-count']).toBe(usersBefore + 1);

    // Nor the invitations sent to it later, while one is pending.
    expect(
      (
        await api.patch(
          `${P}/account/update`,
          { data: { type: 'users', attributes: { email: emails[2].toUpperCase() } } },
          { token: mallory.token },
        )
      ).status,
    ).toBe(200);
    expect((await api.createOrg('later', eve.token)).status).toBe(201);
    const later = await api.post(
      `${P}/organizations/later/organization-memberships`,
      { data: { type: 'organization-memberships', attributes: { email: emails[2] } } },
      { token: eve.token },
    );
    expect(later.status, later.text).toBe(201);
    expect((await api.get(`${P}/organization-memberships`, { token: mallory.token })).body.data).toEqual([]);
    expect((await api.delete(`${P}/organization-memberships/${later.body.data.id}`, { token: eve.token })).status).toBe(
      204,
    );
  });

  it('deleting the invitations leaves no row behind', async () => {
    for (const id of memberships) {
      expect((await api.delete(`${P}/organization-memberships/${id}`, { token: eve.token })).status).toBe(204);
    }
    memberships = [];
    // Only the account created with one of the emails is new.
    expect(await storedUsers()).toBe(usersBefore + 1);
    expect((await adminList()).body.meta.pagination['total-count']).toBe(usersBefore + 1);
  });
});
