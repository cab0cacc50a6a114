import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';

const P = '/api/v2';

/**
 * The teams of many memberships are read a slice at a time (services/organizations/membership-rows.ts,
 * issue 32 item 2): whatever the slices, every membership of a long page names exactly its own
 * teams, ordered by team name, for invitations and active members alike.
 */
describe('the teams of a long page of memberships', () => {
  let api: TestApi;
  let owner: { userId: string; token: string };
  const teams: { name: string; id: string }[] = [];
  /** Email (or username for members) to the names of the teams it was put in. */
  const expected = new Map<string, string[]>();

  beforeAll(async () => {
    api = await TestApi.create();
    owner = await api.userToken('olga');
    expect((await api.createOrg('acme', owner.token)).status).toBe(201);
    // Created out of name order, so that the order of the answer comes from the names.
    for (const name of ['tango', 'alpha', 'mike', 'bravo', 'zulu']) {
      const res = await api.post(
        `${P}/organizations/acme/teams`,
        { data: { type: 'teams', attributes: { name } } },
        {
          token: owner.token,
        },
      );
      teams.push({ name, id: res.body.data.id as string });
    }
    // 70 invitations, each into a different subset of the teams (some into none).
    for (let i = 0; i < 70; i++) {
      const mine = teams.filter((_, k) => (i >> k) & 1);
      const email = `person${i}@example.test`;
      const res = await api.post(
        `${P}/organizations/acme/organization-memberships`,
        {
          data: {
            type: 'organization-memberships',
            attributes: { email },
            relationships: { teams: { data: mine.map((t) => ({ type: 'teams', id: t.id })) } },
          },
        },
        { token: owner.token },
      );
      expect(res.status).toBe(201);
      expected.set(email, mine.map((t) => t.name).sort());
    }
  });
  afterAll(() => api.close());

  it('every membership names its own teams, by team name, across slices', async () => {
    const res = await api.get(`${P}/organizations/acme/organization-memberships?page%5Bsize%5D=100&include=teams`, {
      token: owner.token,
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toHaveLength(71);
    const nameOf = new Map(teams.map((t) => [t.id, t.name]));
    let checked = 0;
    for (const m of res.body.data as {
      attributes: { email: string };
      relationships: { teams: { data: { id: string }[] } };
    }[]) {
      const want = expected.get(m.attributes.email);
      if (!want) continue; // the owner
      expect(m.relationships.teams.data.map((t) => nameOf.get(t.id))).toEqual(want);
      checked++;
    }
    expect(checked).toBe(70);
  });
});
