import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi, type ApiResponse } from '../helpers/api.js';
import { joinOrganization } from '../helpers/members.js';

const P = '/api/v2';
const users = (...names: string[]) => ({ data: names.map((id) => ({ type: 'users', id })) });
const memberships = (...ids: string[]) => ({ data: ids.map((id) => ({ type: 'organization-memberships', id })) });

/** An error answer with the name it mentions replaced, to compare two refusals. */
const shape = (res: ApiResponse, name: string) => ({
  status: res.status,
  errors: (res.body?.errors ?? []).map((e: { detail?: string }) => ({
    ...e,
    detail: e.detail?.split(name).join('NAME'),
  })),
});

/**
 * The cross-tenant team pull of the trial: on an instance where any user may create an
 * organization, a newcomer creates one and tries to put other organizations' people into its
 * teams, by username or by membership id, adding or removing. Every attempt is refused exactly
 * as one naming nobody, and nothing changes for the victims.
 */
describe('an organization owner cannot pull a stranger into a team, nor learn who exists', () => {
  let api: TestApi;
  let mallory: { userId: string; token: string };
  let victimMembership: string;
  let team: string;

  beforeAll(async () => {
    api = await TestApi.create();
    const alice = await api.userToken('alice');
    const victim = await api.userToken('victim');
    mallory = await api.userToken('mallory');
    await api.userToken('loner');
    expect((await api.createOrg('bank', alice.token)).status).toBe(201);
    victimMembership = await joinOrganization(api, 'bank', 'victim', victim.token, alice.token);
    // Anyone may create an organization: mallory owns hers.
    expect((await api.createOrg('lure', mallory.token)).status).toBe(201);
    const created = await api.post(
      `${P}/organizations/lure/teams`,
      { data: { type: 'teams', attributes: { name: 'catch' } } },
      { token: mallory.token },
    );
    expect(created.status).toBe(201);
    team = created.body.data.id;
  });
  afterAll(() => api.close());

  const teamRows = () =>
    api.store.db.selectFrom('team_members').selectAll().orderBy('team_id').orderBy('user_id').execute();

  it('by username: a member of another organization, a user of no organization and no user at all get the same answer', async () => {
    const before = await teamRows();
    for (const method of ['post', 'delete'] as const) {
      const send = (name: string) =>
        method === 'post'
          ? api.post(`${P}/teams/${team}/relationships/users`, users(name), { token: mallory.token })
          : api.delete(`${P}/teams/${team}/relationships/users`, { token: mallory.token, body: users(name) });
      const member = await send('victim');
      const loner = await send('loner');
      const nobody = await send('no-such-user');
      expect(member.status, `${method} ${member.text}`).toBe(404);
      expect(shape(member, 'victim')).toEqual(shape(nobody, 'no-such-user'));
      expect(shape(loner, 'loner')).toEqual(shape(nobody, 'no-such-user'));
    }
    // Slipped in beside her own username: all or nothing, refused the same way.
    const mixed = await api.post(`${P}/teams/${team}/relationships/users`, users('mallory', 'victim'), {
      token: mallory.token,
    });
    expect(mixed.status).toBe(404);
    expect(await teamRows()).toEqual(before);
    const shown = await api.get(`${P}/teams/${team}`, { token: mallory.token });
    expect(shown.body.data.attributes['users-count']).toBe(0);
  });

  it("by membership id: another organization's membership is refused exactly like a made-up id", async () => {
    const before = await teamRows();
    const made = 'ou-AAAAAAAAAAAAAAAA';
    const foreign = await api.post(
      `${P}/teams/${team}/relationships/organization-memberships`,
      memberships(victimMembership),
      {
        token: mallory.token,
      },
    );
    const madeUp = await api.post(`${P}/teams/${team}/relationships/organization-memberships`, memberships(made), {
      token: mallory.token,
    });
    expect(foreign.status).toBe(404);
    expect(shape(foreign, victimMembership)).toEqual(shape(madeUp, made));
    // Nor can she read the membership to learn whose it is.
    expect((await api.get(`${P}/organization-memberships/${victimMembership}`, { token: mallory.token })).status).toBe(
      404,
    );
    expect(await teamRows()).toEqual(before);
  });
});
