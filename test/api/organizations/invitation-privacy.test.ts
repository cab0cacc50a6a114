import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';

const P = '/api/v2';

/**
 * An invitation tells its inviter nothing about the invited person (issue 32, item 4): the answer
 * to an invitation of an email that has an account looks like the answer for one that has none,
 * and neither shows more than the email the inviter typed, until the invitee accepts.
 */
describe('what an inviter sees of the invited person', () => {
  let api: TestApi;
  let eve: { userId: string; token: string };
  let victim: { id: string; token: string };
  let team: string;

  beforeAll(async () => {
    api = await TestApi.create();
    eve = await api.userToken('eve');
    expect((await api.createOrg('evil', eve.token)).status).toBe(201);
    // A site administrator with a stored email in mixed case.
    const created = await api.post(`${P}/admin/users`, {
      data: { type: 'users', attributes: { username: 'victim', email: 'Vic.Tim@Corp.test', 'is-site-admin': true } },
    });
    expect(created.status, created.text).toBe(201);
    const token = await api.post(`${P}/users/${created.body.data.id}/authentication-tokens`, {
      data: { type: 'authentication-tokens', attributes: {} },
    });
    victim = { id: created.body.data.id, token: token.body.data.attributes.token };
    team = (
      await api.post(
        `${P}/organizations/evil/teams`,
        { data: { type: 'teams', attributes: { name: 'bait' } } },
        {
          token: eve.token,
        },
      )
    ).body.data.id;
  });
  afterAll(() => api.close());

  const invite = (email: string) =>
    api.post(
      `${P}/organizations/evil/organization-memberships`,
      {
        data: {
          type: 'organization-memberships',
          attributes: { email },
          relationships: { teams: { data: [{ type: 'teams', id: team }] } },
        },
      },
      { token: eve.token },
    );

  /** A document with what differs between any two invitations (ids, the email, its avatar hash, times) masked. */
  const shape = (doc: unknown, email: string): unknown =>
    JSON.parse(
      JSON.stringify(doc)
        .replaceAll(email, 'EMAIL')
        .replaceAll(encodeURIComponent(email), 'EMAIL')
        .replace(/(ou|user)-[A-Za-z0-9]{16}/g, '$1-ID')
        .replace(/avatar\/[0-9a-f]{64}/g, 'avatar/HASH')
        .replace(/\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z/g, 'TIME'),
    );

  let known: any;
  let unknown: any;

  it('answers an invitation of an email with an account as one without: the email as typed, no username, nothing else', async () => {
    known = await invite('vic.tim@corp.test');
    unknown = await invite('nobody@corp.test');
    expect(known.status, known.text).toBe(201);
    expect(unknown.status, unknown.text).toBe(201);
    expect(shape(known.body, 'vic.tim@corp.test')).toEqual(shape(unknown.body, 'nobody@corp.test'));

    expect(known.body.data.attributes.email).toBe('vic.tim@corp.test');
    const userRef = known.body.data.relationships.user.data;
    expect(userRef).toEqual({ type: 'users', id: expect.stringMatching(/^user-[A-Za-z0-9]{16}$/) });
    // Not the victim's id: it would tie the email to the user wherever that id shows.
    expect(userRef.id).not.toBe(victim.id);
    expect(known.body.included).toHaveLength(1);
    const user = known.body.included[0];
    expect(user.id).toBe(userRef.id);
    expect(user.attributes.username).toBe('');
    expect(user.attributes.email).toBe('vic.tim@corp.test');
    expect(user.attributes).not.toHaveProperty('is-site-admin');
    expect(user.attributes).not.toHaveProperty('is-admin');
    expect(user.attributes).not.toHaveProperty('created-at');
    expect(user.attributes).not.toHaveProperty('permissions');
    expect(JSON.stringify(known.body)).not.toMatch(/victim|Vic\.Tim|Corp\.test/);
  });

  it('reads, lists, searches and team includes show the same: nothing that tells the two apart', async () => {
    const read = async (res: any) =>
      api.get(`${P}/organization-memberships/${res.body.data.id}?include=user,teams`, { token: eve.token });
    expect(shape((await read(known)).body, 'vic.tim@corp.test')).toEqual(
      shape((await read(unknown)).body, 'nobody@corp.test'),
    );
    const byEmail = async (email: string) =>
      api.get(`${P}/organizations/evil/organization-memberships?include=user&filter[email]=${email}`, {
        token: eve.token,
      });
    const k = await byEmail('vic.tim@corp.test');
    const u = await byEmail('nobody@corp.test');
    expect(k.body.data).toHaveLength(1);
    expect(shape(k.body, 'vic.tim@corp.test')).toEqual(shape(u.body, 'nobody@corp.test'));
    // The stored email of the account (another case) matches nothing the inviter did not type.
    for (const q of ['victim', 'Vic.Tim@Corp']) {
      const found = await api.get(`${P}/organizations/evil/organization-memberships?q=${encodeURIComponent(q)}`, {
        token: eve.token,
      });
      expect(
        found.body.data.filter((m: any) => m.attributes.status === 'invited').map((m: any) => m.attributes.email),
        q,
      ).toEqual(q === 'victim' ? [] : ['vic.tim@corp.test']);
    }
    const t = await api.get(`${P}/teams/${team}?include=organization_memberships,users`, { token: eve.token });
    expect(t.status, t.text).toBe(200);
    expect(JSON.stringify(t.body)).not.toMatch(/victim|Vic\.Tim|Corp\.test/);
    expect(JSON.stringify(t.body)).not.toContain(victim.id);
    // The audit trail names the invitation by the email typed, not by the account.
    const audit = await api.get(`${P}/organizations/evil/audit-trail`, { token: eve.token });
    expect(audit.status, audit.text).toBe(200);
    expect(JSON.stringify(audit.body)).not.toMatch(/victim|Vic\.Tim|Corp\.test/);
  });

  it('a site administrator, who may read every account, sees the account behind it, username included (issue 43)', async () => {
    const read = await api.get(`${P}/organization-memberships/${known.body.data.id}?include=user`);
    expect(read.status, read.text).toBe(200);
    expect(read.body.data.attributes).toMatchObject({ status: 'invited', email: 'vic.tim@corp.test' });
    expect(read.body.data.relationships.user.data.id).toBe(victim.id);
    expect(read.body.included[0]).toMatchObject({ id: victim.id, attributes: { username: 'victim' } });
    const listed = await api.get(
      `${P}/organizations/evil/organization-memberships?include=user&filter[status]=invited`,
    );
    const names = Object.fromEntries(
      listed.body.included.map((u: any) => [u.attributes.email.toLowerCase(), u.attributes.username]),
    );
    // An email without an account has no username to show, to anyone.
    expect(names).toEqual({ 'vic.tim@corp.test': 'victim', 'nobody@corp.test': '' });
    // The inviter still sees nothing of the account.
    const again = await api.get(`${P}/organization-memberships/${known.body.data.id}?include=user`, {
      token: eve.token,
    });
    expect(again.body.included[0].attributes.username).toBe('');
    expect(again.body.data.relationships.user.data.id).not.toBe(victim.id);
  });

  it("keeps the email typed when the invitee's own email changes", async () => {
    const changed = await api.patch(
      `${P}/account/update`,
      { data: { type: 'users', attributes: { email: 'victim.private@corp.test' } } },
      { token: victim.token },
    );
    expect(changed.status, changed.text).toBe(200);
    const read = await api.get(`${P}/organization-memberships/${known.body.data.id}?include=user`, {
      token: eve.token,
    });
    expect(read.body.data.attributes.email).toBe('vic.tim@corp.test');
    expect(JSON.stringify(read.body)).not.toContain('private');
  });

  it('the invitee sees their own invitation with their own user, accepts, and the inviter then sees a member (no site-admin flag)', async () => {
    const mine = await api.get(`${P}/organization-memberships?include=user`, { token: victim.token });
    expect(mine.body.data.map((m: any) => m.id)).toEqual([known.body.data.id]);
    expect(mine.body.data[0].relationships.user.data.id).toBe(victim.id);
    expect(mine.body.included[0]).toMatchObject({ id: victim.id, attributes: { username: 'victim' } });
    const accepted = await api.post(`${P}/organization-memberships/${known.body.data.id}/actions/accept`, undefined, {
      token: victim.token,
    });
    expect(accepted.status, accepted.text).toBe(200);

    // What the tfe provider's tfe_organization_membership reads: email, user.id, username.
    const read = await api.get(`${P}/organization-memberships/${known.body.data.id}?include=user`, {
      token: eve.token,
    });
    expect(read.body.data.attributes).toMatchObject({ status: 'active', email: 'victim.private@corp.test' });
    expect(read.body.data.relationships.user.data.id).toBe(victim.id);
    expect(read.body.included[0]).toMatchObject({ id: victim.id, attributes: { username: 'victim' } });
    expect(read.body.included[0].attributes).not.toHaveProperty('is-site-admin');
    expect(read.body.included[0].attributes).not.toHaveProperty('permissions');
  });
});
