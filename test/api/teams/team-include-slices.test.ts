import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';

const P = '/api/v2';

/**
 * A team's `include=organization-memberships` is read and rendered a slice of 100 at a time
 * (services/teams/team-members.ts, api/documents.ts `sendLargeResource`, issue 32 item 2):
 * across slices, the document includes every member's membership exactly once, in the order of
 * its `organization-memberships` relationship, each naming its own teams.
 */
describe('a large team with its memberships included', () => {
  let api: TestApi;
  let owner: { userId: string; token: string };
  let big = '';
  let small = '';
  const MEMBERS = 230;

  beforeAll(async () => {
    api = await TestApi.create();
    owner = await api.userToken('olga');
    expect((await api.createOrg('acme', owner.token)).status).toBe(201);
    for (const name of ['big', 'small']) {
      const res = await api.post(
        `${P}/organizations/acme/teams`,
        { data: { type: 'teams', attributes: { name } } },
        { token: owner.token },
      );
      if (name === 'big') big = res.body.data.id as string;
      else small = res.body.data.id as string;
    }
    for (let i = 0; i < MEMBERS; i++) {
      const teams = i % 3 === 0 ? [big, small] : [big];
      const res = await api.post(
        `${P}/organizations/acme/organization-memberships`,
        {
          data: {
            type: 'organization-memberships',
            attributes: { email: `p${i}@example.test` },
            relationships: { teams: { data: teams.map((id) => ({ type: 'teams', id })) } },
          },
        },
        { token: owner.token },
      );
      expect(res.status).toBe(201);
    }
  });
  afterAll(() => api.close());

  it('includes each membership once, in relationship order, with its own teams', async () => {
    const res = await api.get(`${P}/teams/${big}?include=users,organization-memberships`, { token: owner.token });
    expect(res.status).toBe(200);
    const related = (res.body.data.relationships['organization-memberships'].data as { id: string }[]).map((r) => r.id);
    expect(related).toHaveLength(MEMBERS);
    const included = res.body.included as {
      id: string;
      type: string;
      attributes: { email: string };
      relationships: { teams: { data: { id: string }[] } };
    }[];
    const memberships = included.filter((r) => r.type === 'organization-memberships');
    expect(memberships.map((m) => m.id)).toEqual(related);
    for (const m of memberships) {
      const i = Number(/^p(\d+)@/.exec(m.attributes.email)![1]);
      expect(m.relationships.teams.data.map((t) => t.id).sort()).toEqual((i % 3 === 0 ? [big, small] : [big]).sort());
    }
    // The same text as a small page would give, slice boundaries leaving no trace: valid JSON, no
    // duplicate resource.
    const keys = included.map((r) => `${r.type}/${r.id}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});
