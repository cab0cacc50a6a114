import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/api/app.js';
import { TestApi, type ApiResponse } from '../../helpers/api.js';
import { teamBody, teamMember, type AccessFixture, accessFixture } from '../../helpers/access.js';

const P = '/api/v2';
const tokenBody = (attributes: Record<string, unknown>) => ({ data: { type: 'authentication-tokens', attributes } });
const inOneDay = () => new Date(Date.now() + 86_400_000).toISOString().replace(/\.\d{3}Z$/, 'Z');

describe('team tokens', () => {
  let api: TestApi;
  let f: AccessFixture;
  let teamId: string;
  let owner: string;

  beforeAll(async () => {
    api = await TestApi.create();
    f = await accessFixture(api);
    owner = f.owner.token;
    teamId = (await api.post(`${P}/organizations/acme/teams`, teamBody('platform'), { token: owner })).body.data.id;
  });
  afterAll(() => api.close());

  const create = (path: string, attributes: Record<string, unknown> = {}, token = owner) =>
    api.post(`${P}/teams/${teamId}/${path}`, tokenBody(attributes), { token });

  it("creates the legacy token with go-tfe's shape: secret once, expired-at as sent, created-by, team", async () => {
    const expiry = inOneDay();
    const res = await create('authentication-token', { 'expired-at': expiry });
    expect(res.status, res.text).toBe(201);
    expect(res.body.data).toMatchObject({
      id: expect.stringMatching(/^at-[A-Za-z0-9]{16}$/),
      type: 'authentication-tokens',
      attributes: {
        description: null,
        token: expect.stringMatching(/^berth\./),
        'expired-at': new Date(expiry).toISOString(),
        'last-used-at': null,
        'created-at': expect.any(String),
      },
      relationships: {
        team: { data: { type: 'teams', id: teamId } },
        'created-by': { data: { type: 'users', id: f.owner.userId } },
      },
    });
    // Read back (the legacy path and by id): no secret.
    const legacy = await api.get(`${P}/teams/${teamId}/authentication-token`, { token: owner });
    expect(legacy.status).toBe(200);
    expect(legacy.body.data.id).toBe(res.body.data.id);
    expect(legacy.body.data.attributes.token).toBeNull();
    expect(legacy.body.data.attributes['expired-at']).toBe(new Date(expiry).toISOString());
    const byId = await api.get(`${P}/authentication-tokens/${res.body.data.id}`, { token: owner });
    expect(byId.body.data).toMatchObject({ id: res.body.data.id, relationships: { team: { data: { id: teamId } } } });
  });

  it('regenerating the legacy token revokes the previous one; tokens with a description stay', async () => {
    const described = await create('authentication-tokens', { description: 'ci' });
    expect(described.status).toBe(201);
    expect(described.body.data.attributes.description).toBe('ci');
    const first = (await create('authentication-token')).body.data;
    const second = (await create('authentication-token')).body.data;
    expect((await api.get(`${P}/whoami`, { token: first.attributes.token })).status).toBe(401);
    expect((await api.get(`${P}/whoami`, { token: second.attributes.token })).status).toBe(200);
    expect((await api.get(`${P}/whoami`, { token: described.body.data.attributes.token })).status).toBe(200);
    const list = await api.get(`${P}/teams/${teamId}/authentication-tokens`, { token: owner });
    expect(list.body.data.map((t: any) => t.id)).toEqual(expect.arrayContaining([described.body.data.id, second.id]));
    expect(list.body.data.map((t: any) => t.id)).not.toContain(first.id);
  });

  it('keeps several tokens per team with unique descriptions ("" is one); a repeated one is a 422', async () => {
    const empty = await create('authentication-tokens', { description: '' });
    expect(empty.status).toBe(201);
    expect(empty.body.data.attributes.description).toBe('');
    const again = await create('authentication-tokens', { description: '' });
    expect(again.status).toBe(422);
    expect(again.body.errors[0]).toMatchObject({
      title: 'invalid attributes',
      detail: 'Validation failed: Description has already been taken',
      source: { pointer: '/data/attributes/description' },
    });
    const dup = await create('authentication-tokens', { description: 'ci' });
    expect(dup.status).toBe(422);
  });

  it('validates expired-at: an ISO 8601 time in the future (422 otherwise, nothing stored)', async () => {
    const before = (await api.get(`${P}/teams/${teamId}/authentication-tokens`, { token: owner })).body.meta.pagination[
      'total-count'
    ];
    for (const bad of ['tomorrow', '2020-01-01T00:00:00Z', 12]) {
      const res = await create('authentication-tokens', { description: `bad-${bad}`, 'expired-at': bad });
      expect(res.status, String(bad)).toBe(422);
      expect(res.body.errors[0].source.pointer).toBe('/data/attributes/expired-at');
    }
    const after = (await api.get(`${P}/teams/${teamId}/authentication-tokens`, { token: owner })).body.meta.pagination[
      'total-count'
    ];
    expect(after).toBe(before);
  });

  it('deletes by id and the legacy token by team (404 when there is none)', async () => {
    const t = (await create('authentication-tokens', { description: 'to-delete' })).body.data;
    expect((await api.delete(`${P}/authentication-tokens/${t.id}`, { token: owner })).status).toBe(204);
    expect((await api.get(`${P}/authentication-tokens/${t.id}`, { token: owner })).status).toBe(404);
    expect((await api.get(`${P}/whoami`, { token: t.attributes.token })).status).toBe(401);
    expect((await api.delete(`${P}/teams/${teamId}/authentication-token`, { token: owner })).status).toBe(204);
    expect((await api.delete(`${P}/teams/${teamId}/authentication-token`, { token: owner })).status).toBe(404);
    expect((await api.get(`${P}/teams/${teamId}/authentication-token`, { token: owner })).status).toBe(404);
    expect((await api.get(`${P}/authentication-tokens/at-AAAAAAAAAAAAAAAA`, { token: owner })).status).toBe(404);
  });

  it("lists an organization's team tokens: q by team name, sort by expired-at (either way), paginated", async () => {
    const other = await api.userToken('lister');
    await api.createOrg('listing', other.token);
    const team = async (name: string) =>
      (await api.post(`${P}/organizations/listing/teams`, teamBody(name), { token: other.token })).body.data.id;
    const [red, blue] = [await team('red'), await team('blue')];
    const soon = new Date(Date.now() + 86_400_000).toISOString();
    const later = new Date(Date.now() + 2 * 86_400_000).toISOString();
    const mint = async (id: string, attributes: Record<string, unknown>) =>
      (await api.post(`${P}/teams/${id}/authentication-token`, tokenBody(attributes), { token: other.token })).body.data
        .id;
    const t1 = await mint(red, { 'expired-at': soon });
    const t2 = await mint(blue, { 'expired-at': later });
    const list = (query = '') =>
      api
        .get(`${P}/organizations/listing/team-tokens${query}`, { token: other.token })
        .then((r: ApiResponse) => r.body);
    expect((await list()).data.map((t: any) => t.id).sort()).toEqual([t1, t2].sort());
    expect((await list('?q=RE')).data.map((t: any) => t.id)).toEqual([t1]);
    expect((await list('?sort=expired-at')).data.map((t: any) => t.id)).toEqual([t1, t2]);
    expect((await list('?sort=-expired-at')).data.map((t: any) => t.id)).toEqual([t2, t1]);
    const paged = await list('?page[size]=1&page[number]=2');
    expect(paged.data).toHaveLength(1);
    expect(paged.meta.pagination).toMatchObject({ 'current-page': 2, 'total-count': 2 });
    expect((await api.get(`${P}/organizations/listing/team-tokens?sort=secret`, { token: other.token })).status).toBe(
      400,
    );
    // Another organization's owner sees nothing of it.
    expect((await api.get(`${P}/organizations/listing/team-tokens`, { token: owner })).status).toBe(404);
    expect((await api.get(`${P}/authentication-tokens/${t1}`, { token: owner })).status).toBe(404);
    expect((await api.delete(`${P}/authentication-tokens/${t1}`, { token: owner })).status).toBe(404);
  });

  it('members manage their team tokens when the team allows it; others get 404 (members) or 404', async () => {
    const dev = await teamMember(f, 'devs');
    const ops = await teamMember(f, 'ops');
    const mine = await api.post(`${P}/teams/${dev.teamId}/authentication-tokens`, tokenBody({ description: 'm' }), {
      token: dev.token,
    });
    expect(mine.status, mine.text).toBe(201);
    expect(mine.body.data.relationships['created-by'].data).toEqual({ type: 'users', id: dev.userId });
    // A team member sees its own team's tokens in the organization list, not others'.
    const listed = await api.get(`${P}/organizations/acme/team-tokens`, { token: dev.token });
    expect(listed.body.data.map((t: any) => t.relationships.team.data.id)).toEqual([dev.teamId]);
    // ops cannot see the secret team devs at all; nor its token.
    expect(
      (
        await api.post(`${P}/teams/${dev.teamId}/authentication-tokens`, tokenBody({ description: 'x' }), {
          token: ops.token,
        })
      ).status,
    ).toBe(404);
    expect((await api.get(`${P}/authentication-tokens/${mine.body.data.id}`, { token: ops.token })).status).toBe(404);
    // When the team no longer allows it, its members get 404 and nothing is created.
    const off = await api.patch(
      `${P}/teams/${dev.teamId}`,
      { data: { type: 'teams', attributes: { 'allow-member-token-management': false } } },
      { token: owner },
    );
    expect(off.body.data.attributes['allow-member-token-management']).toBe(false);
    expect(
      (
        await api.post(`${P}/teams/${dev.teamId}/authentication-tokens`, tokenBody({ description: 'y' }), {
          token: dev.token,
        })
      ).status,
    ).toBe(404);
    expect((await api.delete(`${P}/authentication-tokens/${mine.body.data.id}`, { token: dev.token })).status).toBe(
      404,
    );
    // A team token acts as its team, not as a member: it may not mint tokens of its team.
    expect(
      (
        await api.post(`${P}/teams/${dev.teamId}/authentication-tokens`, tokenBody({ description: 'z' }), {
          token: mine.body.data.attributes.token,
        })
      ).status,
    ).toBe(404);
  });

  it('an expired token stops authenticating', async () => {
    let now = new Date();
    const app = createApp({ db: api.store.db, clock: { now: () => now } });
    const call = (path: string, token: string, init: RequestInit = {}) =>
      app.fetch(
        new Request(`http://berth.test${path}`, {
          ...init,
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/vnd.api+json' },
        }),
      );
    const expiry = new Date(now.getTime() + 60_000).toISOString();
    const res = await call(`${P}/teams/${teamId}/authentication-tokens`, owner, {
      method: 'POST',
      body: JSON.stringify(tokenBody({ description: 'short-lived', 'expired-at': expiry })),
    });
    expect(res.status).toBe(201);
    const secret = ((await res.json()) as any).data.attributes.token;
    expect((await call(`${P}/whoami`, secret)).status).toBe(200);
    now = new Date(now.getTime() + 60_000);
    expect((await call(`${P}/whoami`, secret)).status).toBe(401);
  });
});
