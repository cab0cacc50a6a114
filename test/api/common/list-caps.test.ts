import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  MAX_ALLOWED_WORKSPACES_PER_POOL,
  MAX_TEAM_MEMBERS,
  MAX_TEAMS_PER_ORGANIZATION,
  MAX_TOKENS_PER_USER,
} from '../../../src/domain/common/limits.js';
import { TestApi } from '../../helpers/api.js';

/**
 * Lists that a document carries whole (a team's members, a membership's teams, an agent pool's
 * allowed workspaces, a user's unpaged tokens) are capped where they grow, so that one answer
 * stays bounded (issue 19). Rows up to the cap are put in directly; the API refuses the one more.
 */
describe('caps on lists that documents carry whole', () => {
  let api: TestApi;
  let orgId: string;
  const now = new Date().toISOString();

  beforeAll(async () => {
    api = await TestApi.create();
    await api.createOrg('acme');
    // The organization's row id, for the rows put in directly.
    orgId = (
      await api.store.db.selectFrom('organizations').select('id').where('name', '=', 'acme').executeTakeFirstOrThrow()
    ).id;
  });
  afterAll(() => api.close());

  it(`an organization has at most ${MAX_TEAMS_PER_ORGANIZATION} teams`, async () => {
    const have = (
      await api.store.db
        .selectFrom('teams')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('organization_id', '=', orgId)
        .executeTakeFirstOrThrow()
    ).n;
    const rows = Array.from({ length: MAX_TEAMS_PER_ORGANIZATION - Number(have) - 1 }, (_, i) => ({
      id: `team-cap${String(i).padStart(12, '0')}`,
      organization_id: orgId,
      name: `filler-${i}`,
      is_owners: 0,
      manage_projects: 0,
      manage_workspaces: 0,
      read_projects: 0,
      read_workspaces: 0,
      visibility: 'secret',
      created_at: now,
    }));
    for (let i = 0; i < rows.length; i += 200)
      await api.store.db
        .insertInto('teams')
        .values(rows.slice(i, i + 200))
        .execute();
    const team = (name: string) =>
      api.post('/api/v2/organizations/acme/teams', { data: { type: 'teams', attributes: { name } } });
    expect((await team('last-one')).status).toBe(201);
    const res = await team('one-too-many');
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors[0].detail).toContain(`at most ${MAX_TEAMS_PER_ORGANIZATION}`);
    expect((await api.get('/api/v2/organizations/acme/teams?q=one-too-many')).body.data).toEqual([]);
  });

  it(`a team has at most ${MAX_TEAM_MEMBERS} members`, async () => {
    const owners = (await api.get('/api/v2/organizations/acme/teams?q=owners')).body.data[0].id as string;
    const have = (
      await api.store.db
        .selectFrom('team_members')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .where('team_id', '=', owners)
        .executeTakeFirstOrThrow()
    ).n;
    const users = Array.from({ length: MAX_TEAM_MEMBERS - Number(have) }, (_, i) => ({
      id: `user-cap${String(i).padStart(12, '0')}`,
      username: `filler-${i}`,
      email: `filler-${i}@example.com`,
      site_admin: 0,
      created_at: now,
    }));
    for (let i = 0; i < users.length; i += 200) {
      const batch = users.slice(i, i + 200);
      await api.store.db.insertInto('users').values(batch).execute();
      await api.store.db
        .insertInto('team_members')
        .values(batch.map((u) => ({ team_id: owners, user_id: u.id })))
        .execute();
      await api.store.db
        .insertInto('organization_memberships')
        .values(
          batch.map((u, j) => ({
            id: `ou-cap${String(i + j).padStart(12, '0')}`,
            organization_id: orgId,
            user_id: u.id,
            status: 'active',
            created_at: now,
          })),
        )
        .execute();
    }
    const { userId } = await api.userToken('bob');
    const invite = await api.post('/api/v2/organizations/acme/organization-memberships', {
      data: {
        type: 'organization-memberships',
        attributes: { email: 'bob@example.com' },
        relationships: { teams: { data: [{ type: 'teams', id: owners }] } },
      },
    });
    expect(invite.status, invite.text).toBe(422);
    expect(invite.body.errors[0].source.pointer).toBe('/data/relationships/teams');
    const members = await api.get(`/api/v2/organizations/acme/organization-memberships?q=bob`);
    expect(members.body.data).toEqual([]);
    // An active member of the organization cannot be added to the full team either.
    await api.store.db
      .insertInto('organization_memberships')
      .values({ id: 'ou-capbob000000000', organization_id: orgId, user_id: userId, status: 'active', created_at: now })
      .execute();
    const add = await api.post(`/api/v2/teams/${owners}/relationships/users`, { data: [{ type: 'users', id: 'bob' }] });
    expect(add.status, add.text).toBe(422);
    expect(add.body.errors[0].detail).toContain(`at most ${MAX_TEAM_MEMBERS}`);
    const team = await api.get(`/api/v2/teams/${owners}`);
    expect(team.body.data.attributes['users-count']).toBe(MAX_TEAM_MEMBERS);
  });

  it(`an agent pool allows at most ${MAX_ALLOWED_WORKSPACES_PER_POOL} workspaces`, async () => {
    const ids = Array.from({ length: MAX_ALLOWED_WORKSPACES_PER_POOL + 1 }, (_, i) => ({
      type: 'workspaces',
      id: `ws-${String(i).padStart(16, '0')}`,
    }));
    const res = await api.post('/api/v2/organizations/acme/agent-pools', {
      data: {
        type: 'agent-pools',
        attributes: { name: 'pool', 'organization-scoped': false },
        relationships: { 'allowed-workspaces': { data: ids } },
      },
    });
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors[0]).toMatchObject({
      source: { pointer: '/data/relationships/allowed-workspaces/data' },
      detail: expect.stringContaining(`at most ${MAX_ALLOWED_WORKSPACES_PER_POOL}`),
    });
  });

  it(`a user has at most ${MAX_TOKENS_PER_USER} tokens`, async () => {
    const { userId, token } = await api.userToken('carol');
    const rows = Array.from({ length: MAX_TOKENS_PER_USER - 2 }, (_, i) => ({
      id: `at-cap${String(i).padStart(12, '0')}`,
      kind: 'user' as const,
      token_hash: `hash-${i}`,
      user_id: userId,
      team_id: null,
      organization_id: null,
      description: `filler ${i}`,
      created_at: now,
      last_used_at: null,
      expired_at: null,
      created_by_type: null,
      created_by_id: null,
    }));
    for (let i = 0; i < rows.length; i += 200)
      await api.store.db
        .insertInto('tokens')
        .values(rows.slice(i, i + 200))
        .execute();
    const mint = () =>
      api.post(
        `/api/v2/users/${userId}/authentication-tokens`,
        { data: { type: 'authentication-tokens', attributes: {} } },
        { token },
      );
    expect((await mint()).status).toBe(201);
    const res = await mint();
    expect(res.status, res.text).toBe(422);
    expect(res.body.errors[0].detail).toContain(`at most ${MAX_TOKENS_PER_USER}`);
    const listed = await api.get(`/api/v2/users/${userId}/authentication-tokens`, { token });
    expect(listed.body.data).toHaveLength(MAX_TOKENS_PER_USER);
  });
});
