import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { joinOrganization } from '../../helpers/members.js';

const P = '/api/v2';
const users = (...names: string[]) => ({ data: names.map((id) => ({ type: 'users', id })) });
const memberships = (...ids: string[]) => ({ data: ids.map((id) => ({ type: 'organization-memberships', id })) });

/** Team membership by username or by organization membership id, for members of the organization only. */
describe('team members', () => {
  let api: TestApi;
  let olga: { userId: string; token: string };
  let max: { userId: string; token: string };
  let maxMembership: string;
  let invitedMembership: string;
  let team: string;

  beforeAll(async () => {
    api = await TestApi.create();
    olga = await api.userToken('olga');
    max = await api.userToken('max');
    await api.userToken('iris');
    await api.userToken('stranger');
    expect((await api.createOrg('acme', olga.token)).status).toBe(201);
    expect((await api.createOrg('globex')).status).toBe(201);
    maxMembership = await joinOrganization(api, 'acme', 'max', max.token, olga.token);
    const invited = await api.post(
      `${P}/organizations/acme/organization-memberships`,
      { data: { type: 'organization-memberships', attributes: { email: 'iris@example.com' } } },
      { token: olga.token },
    );
    invitedMembership = invited.body.data.id;
    team = (
      await api.post(
        `${P}/organizations/acme/teams`,
        { data: { type: 'teams', attributes: { name: 'devs' } } },
        {
          token: olga.token,
        },
      )
    ).body.data.id;
  });
  afterAll(() => api.close());

  const show = (query = '') => api.get(`${P}/teams/${team}${query}`, { token: olga.token });

  it('a user who is not a member of the organization is refused exactly like an unknown username', async () => {
    const stranger = await api.post(`${P}/teams/${team}/relationships/users`, users('stranger'), { token: olga.token });
    const nobody = await api.post(`${P}/teams/${team}/relationships/users`, users('nobody'), { token: olga.token });
    expect(stranger.status).toBe(404);
    expect(nobody.status).toBe(404);
    expect(stranger.body.errors.map((e: any) => ({ ...e, detail: e.detail.replace('stranger', 'X') }))).toEqual(
      nobody.body.errors.map((e: any) => ({ ...e, detail: e.detail.replace('nobody', 'X') })),
    );
    // A member of another organization (the site administrator created globex) is no member of acme either.
    expect(
      (await api.post(`${P}/teams/${team}/relationships/users`, users('admin'), { token: olga.token })).status,
    ).toBe(404);
    expect((await show()).body.data.attributes['users-count']).toBe(0);
  });

  it('adds and removes by organization membership id; memberships of other organizations are 404', async () => {
    const add = await api.post(
      `${P}/teams/${team}/relationships/organization-memberships`,
      memberships(maxMembership),
      {
        token: olga.token,
      },
    );
    expect(add.status).toBe(204);
    // Adding again changes nothing.
    expect(
      (
        await api.post(`${P}/teams/${team}/relationships/organization-memberships`, memberships(maxMembership), {
          token: olga.token,
        })
      ).status,
    ).toBe(204);
    const res = await show('?include=users,organization-memberships');
    expect(res.status).toBe(200);
    expect(res.body.data.relationships.users.data).toEqual([{ type: 'users', id: max.userId }]);
    expect(res.body.data.relationships['organization-memberships'].data).toEqual([
      { type: 'organization-memberships', id: maxMembership },
    ]);
    expect(res.body.included.map((r: any) => `${r.type}:${r.id}`).sort()).toEqual(
      [`organization-memberships:${maxMembership}`, `users:${max.userId}`].sort(),
    );
    expect(res.body.included.find((r: any) => r.type === 'users').attributes.username).toBe('max');
    // Another member's public face only: no email, no account settings; max sees his own whole.
    const seenByOlga = res.body.included.find((r: any) => r.type === 'users').attributes;
    expect(seenByOlga.email).toBeUndefined();
    expect(seenByOlga['is-site-admin']).toBeUndefined();
    const seenByMax = await api.get(`${P}/teams/${team}?include=users`, { token: max.token });
    expect(seenByMax.status).toBe(200);
    expect(seenByMax.body.included.find((r: any) => r.id === max.userId).attributes.email).toBe('max@example.com');

    const globexMembership = (await api.get(`${P}/organizations/globex/organization-memberships`)).body.data[0].id;
    const foreign = await api.post(
      `${P}/teams/${team}/relationships/organization-memberships`,
      memberships(globexMembership),
    );
    expect(foreign.status).toBe(404);
    const remove = await api.delete(`${P}/teams/${team}/relationships/organization-memberships`, {
      token: olga.token,
      body: memberships(maxMembership),
    });
    expect(remove.status).toBe(204);
    expect((await show()).body.data.attributes['users-count']).toBe(0);
  });

  it('an invited member joins the team when they accept; until then only the membership is related', async () => {
    const add = await api.post(`${P}/teams/${team}/relationships/users`, users('iris'), { token: olga.token });
    expect(add.status).toBe(204);
    const res = await show('?include=organization-memberships');
    expect(res.body.data.relationships.users.data).toEqual([]);
    expect(res.body.data.relationships['organization-memberships'].data).toEqual([
      { type: 'organization-memberships', id: invitedMembership },
    ]);
    expect(res.body.included[0]).toMatchObject({ id: invitedMembership, attributes: { status: 'invited' } });
    const membership = await api.get(`${P}/organization-memberships/${invitedMembership}`, { token: olga.token });
    expect(membership.body.data.relationships.teams.data).toEqual([{ type: 'teams', id: team }]);
    // Removing by username takes the invitation to the team back.
    expect(
      (await api.delete(`${P}/teams/${team}/relationships/users`, { token: olga.token, body: users('iris') })).status,
    ).toBe(204);
    expect((await show()).body.data.relationships['organization-memberships'].data).toEqual([]);
  });

  it('validates bodies (422) and include values (400)', async () => {
    for (const body of [{ data: [] }, { data: [{ type: 'users', id: 'max' }] }, { data: 'x' }]) {
      const res = await api.post(`${P}/teams/${team}/relationships/organization-memberships`, body, {
        token: olga.token,
      });
      expect(res.status, JSON.stringify(body)).toBe(422);
    }
    expect((await show('?include=members')).status).toBe(400);
  });

  it('members who do not manage teams get 404', async () => {
    await api.post(`${P}/teams/${team}/relationships/users`, users('max'), { token: olga.token });
    expect((await api.get(`${P}/organizations/acme`, { token: max.token })).status).toBe(200);
    const res = await api.post(
      `${P}/teams/${team}/relationships/organization-memberships`,
      memberships(maxMembership),
      {
        token: max.token,
      },
    );
    expect(res.status).toBe(404);
  });
});
