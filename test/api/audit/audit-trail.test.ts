import { describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { eachWithAccessFixture, teamMember, type AccessFixture } from '../../helpers/access.js';
import { lockWorkspace } from '../../../src/services/workspaces/workspace-locks.js';
import { LOCAL_SITE_ADMIN } from '../../../src/domain/permissions/actor.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

let api: TestApi;
let f: AccessFixture;

eachWithAccessFixture((made, fixture) => {
  api = made;
  f = fixture;
});

const trail = (query = '', token?: string | null) =>
  api.get(`/api/v2/organizations/acme/audit-trail${query}`, { token: token === undefined ? f.owner.token : token });
const count = async () =>
  Number(
    (
      await api.store.db
        .selectFrom('audit_events')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe('X-Request-Id', () => {
  it('is on every response, fresh each time: successes, errors, unknown routes, ping', async () => {
    const ok = await api.get('/api/v2/organizations/acme');
    const err = await api.get('/api/v2/organizations/acme', { token: 'nope' });
    const missing = await api.get('/api/v2/no-such-route');
    const ping = await api.get('/api/v2/ping', { token: null });
    const ids = [ok, err, missing, ping].map((r) => r.headers.get('x-request-id'));
    expect([ok.status, err.status, missing.status, ping.status]).toEqual([200, 401, 404, 204]);
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(4);
  });

  it('ignores an id sent by the client (ids stay unique and server-made)', async () => {
    const res = await api.request('GET', '/api/v2/organizations/acme', {
      headers: { 'X-Request-Id': 'client-chosen' },
    });
    expect(res.headers.get('x-request-id')).toMatch(UUID);
  });
});

describe('recording', () => {
  it('records a lock with time, actor, action, target, organization and request id', async () => {
    const lock = await api.post(
      `/api/v2/workspaces/${f.web}/actions/lock`,
      { reason: 'audit' },
      { token: f.owner.token },
    );
    expect(lock.status).toBe(200);
    const res = await trail();
    expect(res.status, res.text).toBe(200);
    const e = res.body.data[0];
    expect(e.type).toBe('audit-events');
    expect(e.id).toMatch(/^ae-[A-Za-z0-9]{16}$/);
    expect(e.attributes).toMatchObject({
      action: 'workspace.lock',
      'actor-kind': 'user',
      'actor-id': f.owner.userId,
      'actor-name': 'owner',
      'target-type': 'workspaces',
      'target-id': f.web,
      'target-name': 'web',
      'organization-name': 'acme',
      'workspace-id': f.web,
      'request-id': lock.headers.get('x-request-id'),
    });
    expect(e.attributes['actor-token-id']).toMatch(/^at-/);
    expect(e.attributes.timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    expect(e.relationships.organization.data).toEqual({ type: 'organizations', id: 'acme' });
  });

  it('names what a create made, and what a delete removed', async () => {
    const ws = await api.post(
      '/api/v2/organizations/acme/workspaces',
      { data: { type: 'workspaces', attributes: { name: 'gone' } } },
      { token: f.owner.token },
    );
    expect(ws.status).toBe(201);
    expect((await api.delete(`/api/v2/workspaces/${ws.body.data.id}`, { token: f.owner.token })).status).toBe(204);
    const [del, create] = (await trail()).body.data;
    expect(create.attributes).toMatchObject({
      action: 'workspace.create',
      'target-type': 'workspaces',
      'target-id': ws.body.data.id,
      'target-name': 'gone',
      'workspace-id': ws.body.data.id,
    });
    expect(del.attributes).toMatchObject({
      action: 'workspace.force-delete',
      'target-id': ws.body.data.id,
      'target-name': 'gone',
      'organization-name': 'acme',
    });
  });

  it('records the kind of actor: organization token, team token, the site administrator (a user)', async () => {
    const orgTok = await api.post('/api/v2/organizations/acme/authentication-token', undefined, {
      token: f.owner.token,
    });
    const m = await teamMember(f, 'ops', { 'manage-workspaces': true });
    const teamTok = await api.post(`/api/v2/teams/${m.teamId}/authentication-token`, undefined, {
      token: f.owner.token,
    });
    await api.patch(
      `/api/v2/workspaces/${f.web}`,
      { data: { type: 'workspaces', attributes: { description: 'a' } } },
      { token: orgTok.body.data.attributes.token },
    );
    await api.patch(
      `/api/v2/workspaces/${f.web}`,
      { data: { type: 'workspaces', attributes: { description: 'b' } } },
      { token: teamTok.body.data.attributes.token },
    );
    await api.patch(`/api/v2/workspaces/${f.web}`, { data: { type: 'workspaces', attributes: { description: 'c' } } });
    const kinds = (await trail('?filter[workspace]=' + f.web)).body.data
      .filter((e: any) => e.attributes.action === 'workspace.update')
      .map((e: any) => [e.attributes['actor-kind'], e.attributes['actor-token-id']]);
    expect(kinds).toEqual([
      ['user', expect.stringMatching(/^at-/)],
      ['team', teamTok.body.data.id],
      ['organization', orgTok.body.data.id],
    ]);
  });

  it('leaves no record for rejected or failed requests', async () => {
    const before = await count();
    const other = await api.userToken('stranger');
    expect((await api.post(`/api/v2/workspaces/${f.web}/actions/lock`, {}, { token: other.token })).status).toBe(404);
    expect((await api.post(`/api/v2/workspaces/${f.web}/actions/lock`, {}, { token: 'bogus' })).status).toBe(401);
    expect(
      (
        await api.post(
          '/api/v2/organizations/acme/workspaces',
          { data: { type: 'workspaces', attributes: { name: 'web' } } },
          { token: f.owner.token },
        )
      ).status,
    ).toBe(422);
    expect(
      (await api.post(`/api/v2/workspaces/${f.web}/actions/unlock`, undefined, { token: f.owner.token })).status,
    ).toBe(409);
    expect((await api.post('/api/v2/no-such-thing', {}, { token: f.owner.token })).status).toBe(404);
    // Found by the fuzzer: the 404 of an unknown user used to come after its (empty) delete had
    // committed, taking an audit record with it.
    expect((await api.delete('/api/v2/admin/users/no-such-user')).status).toBe(404);
    expect(await count()).toBe(before);
  });
});

describe('atomicity', () => {
  it('a change and its record commit together: when the record cannot be written, the change rolls back', async () => {
    const ctx = TestApi.ctx(api.store, LOCAL_SITE_ADMIN);
    const hook = { beforeCommit: async () => Promise.reject(new Error('disk full')), afterCommit: () => undefined };
    await expect(lockWorkspace({ ...ctx, commitHook: hook }, { id: f.web }, 'x')).rejects.toThrow('disk full');
    expect((await api.get(`/api/v2/workspaces/${f.web}`)).body.data.attributes.locked).toBe(false);
  });
});

describe('GET /organizations/:org/audit-trail', () => {
  it('is for owners and the organization token: 404 for other members, 404 for strangers', async () => {
    const member = await teamMember(f, 'devs', { 'manage-workspaces': true });
    const stranger = await api.userToken('stranger');
    const orgTok = await api.post('/api/v2/organizations/acme/authentication-token', undefined, {
      token: f.owner.token,
    });
    expect((await trail('', member.token)).status).toBe(404);
    expect((await trail('', stranger.token)).status).toBe(404);
    expect((await trail('', null)).status).toBe(401);
    expect((await trail('', orgTok.body.data.attributes.token)).status).toBe(200);
    expect((await trail('')).status).toBe(200);
    expect((await api.get('/api/v2/organizations/nope/audit-trail', { token: f.owner.token })).status).toBe(404);
  });

  it('pages newest first with meta.pagination and links', async () => {
    for (let i = 0; i < 3; i++)
      await api.patch(
        `/api/v2/workspaces/${f.web}`,
        { data: { type: 'workspaces', attributes: { description: `d${i}` } } },
        { token: f.owner.token },
      );
    const all = (await trail('?page[size]=100')).body;
    const total = all.meta.pagination['total-count'];
    expect(total).toBe(all.data.length);
    const seqs = all.data.map((e: any) => e.attributes.timestamp);
    expect([...seqs].sort().reverse()).toEqual(seqs);
    const p2 = (await trail('?page[size]=2&page[number]=2')).body;
    expect(p2.data.map((e: any) => e.id)).toEqual(all.data.slice(2, 4).map((e: any) => e.id));
    expect(p2.meta.pagination).toMatchObject({ 'current-page': 2, 'page-size': 2, 'total-count': total });
    expect(p2.links.next).toContain('page%5Bnumber%5D=3');
  });

  it('filters by since, actor and workspace', async () => {
    const other = await api.post('/api/v2/organizations/acme/workspaces', {
      data: { type: 'workspaces', attributes: { name: 'api' } },
    });
    await api.post(`/api/v2/workspaces/${other.body.data.id}/actions/lock`, {});
    const byWs = (await trail(`?filter[workspace]=${other.body.data.id}`)).body.data.map(
      (e: any) => e.attributes.action,
    );
    expect(byWs).toEqual(['workspace.lock', 'workspace.create']);
    const byActor = (await trail(`?filter[actor]=${f.owner.userId}`)).body.data;
    expect(byActor.length).toBeGreaterThan(0);
    expect(byActor.every((e: any) => e.attributes['actor-id'] === f.owner.userId)).toBe(true);
    expect((await trail('?filter[since]=2999-01-01')).body.data).toEqual([]);
    const total = (await trail()).body.meta.pagination['total-count'];
    expect((await trail('?filter[since]=2000-01-01T00:00:00Z')).body.meta.pagination['total-count']).toBe(total);
  });

  it('answers malformed filters with a 400 naming the parameter', async () => {
    for (const [q, param] of [
      ['filter[since]=yesterday', 'filter[since]'],
      ['filter[since]=2025-13-45', 'filter[since]'],
      ['filter[actor]=alice', 'filter[actor]'],
      ['filter[workspace]=web', 'filter[workspace]'],
    ]) {
      const res = await trail(`?${q}`);
      expect(res.status, q).toBe(400);
      expect(res.body.errors[0].source).toEqual({ parameter: param });
    }
    expect((await trail('?page[size]=500')).status).toBe(422);
  });
});
