import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';

const P = '/api/v2';
const invite = (email: unknown, teams: string[] = []) => ({
  data: {
    type: 'organization-memberships',
    attributes: { email },
    relationships: { teams: { data: teams.map((id) => ({ type: 'teams', id })) } },
  },
});

/** Organization memberships as go-tfe's OrganizationMemberships reads them. */
describe('organization memberships', () => {
  let api: TestApi;
  let olga: { userId: string; token: string };
  let max: { userId: string; token: string };
  let otto: { userId: string; token: string };
  let devs: string;
  let ops: string;

  beforeAll(async () => {
    api = await TestApi.create();
    olga = await api.userToken('olga');
    max = await api.userToken('max');
    otto = await api.userToken('otto');
    expect((await api.createOrg('acme', olga.token)).status).toBe(201);
    const team = async (name: string) =>
      (
        await api.post(
          `${P}/organizations/acme/teams`,
          { data: { type: 'teams', attributes: { name } } },
          {
            token: olga.token,
          },
        )
      ).body.data.id as string;
    devs = await team('devs');
    ops = await team('ops');
  });
  afterAll(() => api.close());

  const list = (query = '', token = olga.token) =>
    api.get(`${P}/organizations/acme/organization-memberships${query}`, { token });

  it("the organization's creator is an active member", async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(1);
    expect(res.body.data[0]).toMatchObject({
      type: 'organization-memberships',
      id: expect.stringMatching(/^ou-[A-Za-z0-9]{16}$/),
      attributes: { status: 'active', email: 'olga@example.com' },
      relationships: {
        organization: { data: { type: 'organizations', id: 'acme' } },
        user: { data: { type: 'users', id: olga.userId } },
      },
    });
    // The owners team is among the creator's teams.
    expect(res.body.data[0].relationships.teams.data).toHaveLength(1);
  });

  it('invites by email an existing user (found without case) to teams: 201, invited, the invitee included as the email typed', async () => {
    const res = await api.post(
      `${P}/organizations/acme/organization-memberships`,
      invite('MAX@example.com', [ops, devs]),
      {
        token: olga.token,
      },
    );
    expect(res.status).toBe(201);
    const m = res.body.data;
    // Until max accepts, the invitation shows the email typed and a user id of its own: it does
    // not tell the inviter whose account the email is (test/api/organizations/invitation-privacy.test.ts).
    expect(m.attributes).toMatchObject({ status: 'invited', email: 'MAX@example.com' });
    expect(m.relationships.user.data).toEqual({ type: 'users', id: expect.stringMatching(/^user-/) });
    expect(m.relationships.user.data.id).not.toBe(max.userId);
    expect(m.relationships.teams.data).toEqual([
      { type: 'teams', id: devs },
      { type: 'teams', id: ops },
    ]);
    expect(res.body.included).toEqual([
      expect.objectContaining({
        type: 'users',
        id: m.relationships.user.data.id,
        attributes: expect.objectContaining({ username: '', email: 'MAX@example.com' }),
      }),
    ]);
    // Read back with include=user: the same document, as go-tfe compares them.
    const read = await api.get(`${P}/organization-memberships/${m.id}?include=user`, { token: olga.token });
    expect(read.status).toBe(200);
    expect(read.body).toEqual(res.body);
  });

  it('an invited user has no access until they accept; accepting makes them join their teams', async () => {
    expect((await api.get(`${P}/organizations/acme`, { token: max.token })).status).toBe(404);
    expect((await api.get(`${P}/organizations`, { token: max.token })).body.data).toEqual([]);
    const devsTeam = await api.get(`${P}/teams/${devs}`, { token: olga.token });
    expect(devsTeam.body.data.attributes['users-count']).toBe(0);

    // max sees his own invitation.
    const own = await api.get(`${P}/organization-memberships`, { token: max.token });
    expect(own.status).toBe(200);
    expect(own.body.data.map((m: any) => [m.relationships.organization.data.id, m.attributes.status])).toEqual([
      ['acme', 'invited'],
    ]);
    const id = own.body.data[0].id;
    // Only max accepts: the owner gets 404, a stranger 404.
    expect(
      (await api.post(`${P}/organization-memberships/${id}/actions/accept`, undefined, { token: olga.token })).status,
    ).toBe(404);
    expect(
      (await api.post(`${P}/organization-memberships/${id}/actions/accept`, undefined, { token: otto.token })).status,
    ).toBe(404);
    const accepted = await api.post(`${P}/organization-memberships/${id}/actions/accept`, undefined, {
      token: max.token,
    });
    expect(accepted.status).toBe(200);
    expect(accepted.body.data.attributes.status).toBe('active');
    expect(accepted.body.data.relationships.teams.data.map((t: any) => t.id).sort()).toEqual([devs, ops].sort());
    expect((await api.get(`${P}/organizations/acme`, { token: max.token })).status).toBe(200);
    const after = await api.get(`${P}/teams/${devs}`, { token: olga.token });
    expect(after.body.data.relationships.users.data).toEqual([{ type: 'users', id: max.userId }]);
    // Accepting again changes nothing.
    expect(
      (await api.post(`${P}/organization-memberships/${id}/actions/accept`, undefined, { token: max.token })).status,
    ).toBe(200);
  });

  it('inviting a new email claims no username (the user shows ""); inviting a member again is a 422', async () => {
    const res = await api.post(`${P}/organizations/acme/organization-memberships`, invite('new.person+x@corp.test'), {
      token: olga.token,
    });
    expect(res.status).toBe(201);
    expect(res.body.included[0].attributes).toMatchObject({ username: '', email: 'new.person+x@corp.test' });
    const again = await api.post(`${P}/organizations/acme/organization-memberships`, invite('olga@example.com'), {
      token: olga.token,
    });
    expect(again.status).toBe(422);
    expect(again.body.errors[0].source.pointer).toBe('/data/attributes/email');
  });

  it('validates the invitation: email required and well formed, teams of this organization (nothing stored)', async () => {
    const before = (await list()).body.meta.pagination['total-count'];
    const bad = async (body: unknown, status: number) => {
      const res = await api.post(`${P}/organizations/acme/organization-memberships`, body, { token: olga.token });
      expect(res.status, JSON.stringify(body)).toBe(status);
      return res;
    };
    expect((await bad(invite('not-an-email-address'), 422)).body.errors[0].source.pointer).toBe(
      '/data/attributes/email',
    );
    await bad(invite(undefined), 422);
    await bad(invite(42), 422);
    await bad(
      {
        data: {
          type: 'organization-memberships',
          attributes: { email: 'a@b.c' },
          relationships: { teams: { data: 'x' } },
        },
      },
      422,
    );
    await bad(invite('z@example.com', ['team-doesnotexist0000']), 404);
    await api.createOrg('other');
    const foreign = (await api.get(`${P}/organizations/other/teams`)).body.data[0].id;
    await bad(invite('z@example.com', [foreign]), 404);
    expect((await list()).body.meta.pagination['total-count']).toBe(before);
    expect((await api.get(`${P}/admin/users?q=z@example.com`)).body.data).toEqual([]);
  });

  it('lists with filter[email] (repeated or comma-separated), filter[status], q and pagination', async () => {
    const emails = (res: any) => res.body.data.map((m: any) => m.attributes.email).sort();
    expect(emails(await list('?filter[email]=olga@example.com,max@example.com'))).toEqual([
      'max@example.com',
      'olga@example.com',
    ]);
    expect(emails(await list('?filter[email]=OLGA@example.com&filter[email]=nobody@x.y'))).toEqual([
      'olga@example.com',
    ]);
    expect(emails(await list('?filter[status]=invited'))).toEqual(['new.person+x@corp.test']);
    expect(emails(await list('?filter[status]=active'))).toEqual(['max@example.com', 'olga@example.com']);
    expect(emails(await list('?q=CORP.test'))).toEqual(['new.person+x@corp.test']);
    expect(emails(await list('?q=olg'))).toEqual(['olga@example.com']);
    const bad = await list('?filter[status]=pending');
    expect(bad.status).toBe(400);
    const page = await list('?page[number]=999&page[size]=100');
    expect(page.body.data).toEqual([]);
    expect(page.body.meta.pagination).toMatchObject({ 'current-page': 999, 'total-count': 3 });
  });

  it('includes users and teams on request; an unknown include is a 400', async () => {
    const res = await list('?include=user,teams&filter[email]=max@example.com');
    expect(res.status).toBe(200);
    const types = res.body.included.map((r: any) => `${r.type}:${r.id}`).sort();
    expect(types).toEqual([`teams:${devs}`, `teams:${ops}`, `users:${max.userId}`].sort());
    const bad = await list('?include=users');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].detail).toBe('Invalid include parameter');
  });

  it('members who do not manage teams get 404, outsiders 404; a member may read and delete their own', async () => {
    expect((await list('', max.token)).status).toBe(404);
    expect((await list('', otto.token)).status).toBe(404);
    const mine = (await api.get(`${P}/organization-memberships`, { token: max.token })).body.data[0].id;
    const olgas = (await list('?filter[email]=olga@example.com')).body.data[0].id;
    expect((await api.get(`${P}/organization-memberships/${mine}`, { token: max.token })).status).toBe(200);
    expect((await api.get(`${P}/organization-memberships/${olgas}`, { token: max.token })).status).toBe(404);
    expect((await api.get(`${P}/organization-memberships/${mine}`, { token: otto.token })).status).toBe(404);
    expect((await api.delete(`${P}/organization-memberships/${mine}`, { token: otto.token })).status).toBe(404);
    expect((await api.get(`${P}/organization-memberships/ou-nonexistent00000`, { token: olga.token })).status).toBe(
      404,
    );
  });

  it('deleting a membership takes the user out of every team of the organization', async () => {
    const mine = (await api.get(`${P}/organization-memberships`, { token: max.token })).body.data[0].id;
    expect((await api.delete(`${P}/organization-memberships/${mine}`, { token: max.token })).status).toBe(204);
    expect((await api.get(`${P}/organizations/acme`, { token: max.token })).status).toBe(404);
    expect((await api.get(`${P}/teams/${devs}`, { token: olga.token })).body.data.attributes['users-count']).toBe(0);
    expect((await api.get(`${P}/admin/users?q=max`)).body.data).toHaveLength(1);
  });

  it('the last owner cannot leave (422, nothing changes)', async () => {
    const olgas = (await list('?filter[email]=olga@example.com')).body.data[0].id;
    const res = await api.delete(`${P}/organization-memberships/${olgas}`, { token: olga.token });
    expect(res.status).toBe(422);
    expect((await api.get(`${P}/organization-memberships/${olgas}`, { token: olga.token })).status).toBe(200);
    expect((await api.get(`${P}/organizations/acme`, { token: olga.token })).status).toBe(200);
  });

  it('an organization token manages memberships of its organization only', async () => {
    const orgToken = (await api.post(`${P}/organizations/acme/authentication-token`, undefined, { token: olga.token }))
      .body.data.attributes.token;
    expect((await list('', orgToken)).status).toBe(200);
    expect((await api.get(`${P}/organizations/other/organization-memberships`, { token: orgToken })).status).toBe(404);
    const res = await api.post(`${P}/organizations/acme/organization-memberships`, invite('otto@example.com'), {
      token: orgToken,
    });
    expect(res.status).toBe(201);
    // Its own memberships: an organization token has none.
    expect((await api.get(`${P}/organization-memberships`, { token: orgToken })).body.data).toEqual([]);
  });
});
