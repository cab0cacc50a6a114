import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';

const fixture = (name: string) => readFileSync(new URL(`../../fixtures/${name}`, import.meta.url));
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
const svBody = (state: Buffer, extra: Record<string, unknown> = {}) => {
  const parsed = JSON.parse(state.toString());
  return {
    data: {
      type: 'state-versions',
      attributes: {
        serial: parsed.serial,
        lineage: parsed.lineage,
        md5: md5(state),
        state: state.toString('base64'),
        ...extra,
      },
    },
  };
};

describe('workspace locking, state versions and safe delete', () => {
  let api: TestApi;
  let alice: { userId: string; token: string };
  let bob: { userId: string; token: string };
  let reader: { userId: string; token: string };
  let teamToken: string;
  let teamId: string;
  let wsCount = 0;

  /** A fresh workspace in acme; returns its id. */
  async function workspace(): Promise<string> {
    const res = await api.post(
      '/api/v2/organizations/acme/workspaces',
      { data: { type: 'workspaces', attributes: { name: `ws-${++wsCount}` } } },
      { token: alice.token },
    );
    expect(res.status).toBe(201);
    return res.body.data.id;
  }
  const lock = (id: string, token: string, body?: unknown) =>
    api.post(`/api/v2/workspaces/${id}/actions/lock`, body, { token });
  const unlock = (id: string, token: string) =>
    api.post(`/api/v2/workspaces/${id}/actions/unlock`, undefined, { token });
  const forceUnlock = (id: string, token: string) =>
    api.post(`/api/v2/workspaces/${id}/actions/force-unlock`, undefined, { token });

  beforeAll(async () => {
    api = await TestApi.create();
    alice = await api.userToken('alice');
    bob = await api.userToken('bob');
    reader = await api.userToken('reader');
    expect((await api.createOrg('acme', alice.token)).status).toBe(201);
    const db = api.store.db;
    const org = await db.selectFrom('organizations').select('id').where('name', '=', 'acme').executeTakeFirstOrThrow();
    const owners = await db
      .selectFrom('teams')
      .select('id')
      .where('organization_id', '=', org.id)
      .where('name', '=', 'owners')
      .executeTakeFirstOrThrow();
    await db.insertInto('team_members').values({ team_id: owners.id, user_id: bob.userId }).execute();
    const now = new Date().toISOString();
    teamId = 'team-LockTeam0000000A';
    await db
      .insertInto('teams')
      .values({
        id: teamId,
        organization_id: org.id,
        name: 'ops',
        is_owners: 0,
        manage_projects: 0,
        manage_workspaces: 1,
        read_projects: 0,
        read_workspaces: 1,
        visibility: 'secret',
        created_at: now,
      })
      .execute();
    await db
      .insertInto('teams')
      .values({
        id: 'team-ReadTeam0000000A',
        organization_id: org.id,
        name: 'readers',
        is_owners: 0,
        manage_projects: 0,
        manage_workspaces: 0,
        read_projects: 1,
        read_workspaces: 1,
        visibility: 'secret',
        created_at: now,
      })
      .execute();
    await db.insertInto('team_members').values({ team_id: 'team-ReadTeam0000000A', user_id: reader.userId }).execute();
    const { createHash: h } = await import('node:crypto');
    teamToken = 'berth.teamtokenForLocks.000000000000000000000000000000000000000';
    await db
      .insertInto('tokens')
      .values({
        id: 'at-LockTeamToken00A',
        kind: 'team',
        token_hash: h('sha256').update(teamToken).digest('hex'),
        user_id: null,
        team_id: teamId,
        organization_id: null,
        description: null,
        created_at: now,
        last_used_at: null,
      })
      .execute();
  });
  afterAll(() => api.close());

  it('unlocked -> lock: 200, locked by the calling user, with the reason', async () => {
    const id = await workspace();
    const res = await lock(id, alice.token, { reason: 'maintenance' });
    expect(res.status).toBe(200);
    expect(res.body.data.type).toBe('workspaces');
    expect(res.body.data.attributes).toMatchObject({ locked: true, 'locked-reason': 'maintenance' });
    expect(res.body.data.relationships['locked-by'].data).toEqual({ id: alice.userId, type: 'users' });
    const read = await api.get(`/api/v2/workspaces/${id}`, { token: alice.token });
    expect(read.body.data.attributes.locked).toBe(true);
    // The answer is the workspace as the lock left it: what a read gives afterwards.
    expect(res.body.data).toEqual(read.body.data);
  });

  it('accepts every lock body clients send', async () => {
    for (const body of [
      undefined,
      { data: { type: '' } },
      { data: { type: '', attributes: { reason: 'go-tfe' } } },
      { reason: 'docs' },
    ]) {
      const id = await workspace();
      const res = await lock(id, alice.token, body);
      expect(res.status).toBe(200);
    }
    const id = await workspace();
    const bad = await lock(id, alice.token, { reason: 42 });
    expect(bad.status).toBe(422);
    expect((await api.get(`/api/v2/workspaces/${id}`, { token: alice.token })).body.data.attributes.locked).toBe(false);
  });

  it('locked -> lock: 409', async () => {
    const id = await workspace();
    await lock(id, alice.token);
    const res = await lock(id, bob.token);
    expect(res.status).toBe(409);
    expect(res.body.errors[0]).toMatchObject({ status: '409', title: 'conflict' });
  });

  it("a team token locks as the team; another caller's unlock names the team", async () => {
    const id = await workspace();
    const res = await lock(id, teamToken);
    expect(res.body.data.relationships['locked-by'].data).toEqual({ id: teamId, type: 'teams' });
    const other = await unlock(id, alice.token);
    expect(other.status).toBe(409);
    expect(other.body.errors[0].detail).toContain('is locked by Team');
    expect((await unlock(id, teamToken)).status).toBe(200);
  });

  it('locked -> unlock by the holder: 200 and unlocked', async () => {
    const id = await workspace();
    await lock(id, alice.token);
    const res = await unlock(id, alice.token);
    expect(res.status).toBe(200);
    expect(res.body.data.attributes).toMatchObject({ locked: false, 'locked-reason': null });
    expect(res.body.data.relationships['locked-by'].data).toBeNull();
    expect(res.body.data).toEqual((await api.get(`/api/v2/workspaces/${id}`, { token: alice.token })).body.data);
  });

  it('locked by another user -> unlock: 409 naming the user, still locked', async () => {
    const id = await workspace();
    await lock(id, alice.token);
    const res = await unlock(id, bob.token);
    expect(res.status).toBe(409);
    expect(res.body.errors[0].detail).toContain(`is locked by User ${alice.userId}`);
    expect((await api.get(`/api/v2/workspaces/${id}`, { token: alice.token })).body.data.attributes.locked).toBe(true);
  });

  it('unlocked -> unlock: 409 that does not claim a holder', async () => {
    const id = await workspace();
    const res = await unlock(id, alice.token);
    expect(res.status).toBe(409);
    expect(res.body.errors[0].detail).not.toContain('is locked by');
    expect(res.body.errors[0].detail).toContain('not locked');
  });

  it('locked -> force-unlock by an admin: 200; unlocked -> force-unlock: 409', async () => {
    const id = await workspace();
    await lock(id, alice.token);
    const res = await forceUnlock(id, bob.token);
    expect(res.status).toBe(200);
    expect(res.body.data.attributes.locked).toBe(false);
    expect(res.body.data).toEqual((await api.get(`/api/v2/workspaces/${id}`, { token: bob.token })).body.data);
    const again = await forceUnlock(id, bob.token);
    expect(again.status).toBe(409);
  });

  it('a reader may not lock (404); strangers and unknown workspaces get 404', async () => {
    const id = await workspace();
    expect((await lock(id, reader.token)).status).toBe(404);
    const stranger = await api.userToken('stranger');
    expect((await lock(id, stranger.token)).status).toBe(404);
    expect((await lock('ws-AAAAAAAAAAAAAAAA', alice.token)).status).toBe(404);
    expect((await api.get(`/api/v2/workspaces/${id}`, { token: alice.token })).body.data.attributes.locked).toBe(false);
  });

  it('of 50 concurrent lock requests from different callers exactly one succeeds', async () => {
    const id = await workspace();
    const callers = [alice.token, bob.token, teamToken, api.adminToken];
    const results = await Promise.all(Array.from({ length: 50 }, (_, i) => lock(id, callers[i % callers.length])));
    const statuses = results.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(49);
  });

  describe('state versions', () => {
    it('must be created by the lock holder (409 otherwise)', async () => {
      const id = await workspace();
      const state = fixture('state-small.json');
      expect(
        (await api.post(`/api/v2/workspaces/${id}/state-versions`, svBody(state), { token: alice.token })).status,
      ).toBe(409);
      await lock(id, alice.token);
      expect(
        (await api.post(`/api/v2/workspaces/${id}/state-versions`, svBody(state), { token: bob.token })).status,
      ).toBe(409);
      expect((await api.get(`/api/v2/workspaces/${id}/state-versions`, { token: alice.token })).body.data).toEqual([]);
    });

    it('inline state: stored, finalized, current after unlock, resources counted, download serves it', async () => {
      const id = await workspace();
      const state = fixture('state-small.json');
      await lock(id, alice.token);
      const created = await api.post(`/api/v2/workspaces/${id}/state-versions`, svBody(state), { token: alice.token });
      expect(created.status).toBe(201);
      const sv = created.body.data;
      expect(sv.id).toMatch(/^sv-[A-Za-z0-9]{16}$/);
      expect(sv.attributes).toMatchObject({
        serial: 3,
        status: 'finalized',
        'resource-count': 3,
        intermediate: true,
        'resources-processed': true,
      });
      // Intermediate until the lock is released.
      expect((await api.get(`/api/v2/workspaces/${id}/current-state-version`, { token: alice.token })).status).toBe(
        404,
      );
      const unlocked = await unlock(id, alice.token);
      // The unlock's own answer shows the promoted version, as a read afterwards does.
      expect(unlocked.status).toBe(200);
      expect(unlocked.body.data.attributes).toMatchObject({
        locked: false,
        'resource-count': 3,
        'latest-change-at': sv.attributes['created-at'],
      });
      expect(unlocked.body.data.relationships['current-state-version'].data).toEqual({
        id: sv.id,
        type: 'state-versions',
      });
      expect(unlocked.body.data).toEqual((await api.get(`/api/v2/workspaces/${id}`, { token: alice.token })).body.data);
      const current = await api.get(`/api/v2/workspaces/${id}/current-state-version`, { token: alice.token });
      expect(current.status).toBe(200);
      expect(current.body.data.id).toBe(sv.id);
      const ws = (await api.get(`/api/v2/workspaces/${id}`, { token: alice.token })).body.data;
      expect(ws.attributes['resource-count']).toBe(3);
      expect(ws.attributes['latest-change-at']).toBe(sv.attributes['created-at']);
      expect(ws.relationships['current-state-version'].data).toEqual({ id: sv.id, type: 'state-versions' });
      const url = new URL(current.body.data.attributes['hosted-state-download-url']);
      const download = await api.request('GET', url.pathname + url.search, { token: null });
      expect(download.status).toBe(200);
      expect(download.text).toBe(state.toString());
      const noSecret = await api.request('GET', url.pathname, { token: null });
      expect(noSecret.status).toBe(404);
    });

    it('rejects a wrong md5, a body that is not JSON or not base64, and a serial going backwards (422, nothing stored)', async () => {
      const id = await workspace();
      const state = fixture('state-small.json');
      await lock(id, alice.token);
      const post = (body: unknown) => api.post(`/api/v2/workspaces/${id}/state-versions`, body, { token: alice.token });
      const wrongMd5 = await post(svBody(state, { md5: '0'.repeat(32) }));
      expect(wrongMd5.status).toBe(422);
      expect(wrongMd5.body.errors[0].detail).toContain('md5');
      const text = Buffer.from('not json');
      expect(
        (
          await post({
            data: { type: 'state-versions', attributes: { serial: 1, md5: md5(text), state: text.toString('base64') } },
          })
        ).status,
      ).toBe(422);
      expect((await post(svBody(state, { state: '%%%' }))).status).toBe(422);
      expect((await post(svBody(state, { serial: 'three' }))).status).toBe(422);
      expect((await api.get(`/api/v2/workspaces/${id}/state-versions`, { token: alice.token })).body.data).toEqual([]);
      expect((await post(svBody(state))).status).toBe(201);
      const older = { ...JSON.parse(state.toString()), serial: 1 };
      const olderBytes = Buffer.from(JSON.stringify(older));
      const backwards = await post(svBody(olderBytes));
      expect(backwards.status).toBe(422);
      expect(backwards.body.errors[0].source.pointer).toBe('/data/attributes/serial');
    });

    it('unlock makes the latest of several finalized versions current, and none of them stays intermediate', async () => {
      const id = await workspace();
      const state = fixture('state-small.json');
      const next = Buffer.from(JSON.stringify({ ...JSON.parse(state.toString()), serial: 4 }));
      await lock(id, alice.token);
      const first = await api.post(`/api/v2/workspaces/${id}/state-versions`, svBody(state), { token: alice.token });
      const second = await api.post(`/api/v2/workspaces/${id}/state-versions`, svBody(next), { token: alice.token });
      expect([first.status, second.status]).toEqual([201, 201]);
      const res = await unlock(id, alice.token);
      expect(res.status).toBe(200);
      expect(res.body.data.relationships['current-state-version'].data).toEqual({
        id: second.body.data.id,
        type: 'state-versions',
      });
      const versions = (await api.get(`/api/v2/workspaces/${id}/state-versions`, { token: alice.token })).body.data;
      expect(versions.map((v: any) => [v.attributes.serial, v.attributes.intermediate]).sort()).toEqual([
        [3, false],
        [4, false],
      ]);
    });

    it('pending upload: unlock answers 503 with Retry-After until the upload arrives, then succeeds', async () => {
      const id = await workspace();
      const state = fixture('state-small.json');
      await lock(id, alice.token);
      const { state: _omit, ...attributes } = svBody(state).data.attributes;
      const created = await api.post(
        `/api/v2/workspaces/${id}/state-versions`,
        { data: { type: 'state-versions', attributes } },
        { token: alice.token },
      );
      expect(created.status).toBe(201);
      expect(created.body.data.attributes.status).toBe('pending');
      const uploadUrl = new URL(created.body.data.attributes['hosted-state-upload-url']);
      const refused = await unlock(id, alice.token);
      expect(refused.status).toBe(503);
      expect(refused.headers.get('retry-after')).toBeTruthy();
      expect(refused.body.errors[0].detail).toContain('latest state version is still pending');
      // A body that does not match the md5 is refused and the version stays pending.
      const wrong = await api.request('PUT', uploadUrl.pathname + uploadUrl.search, {
        raw: '{"serial":3}',
        token: null,
        headers: { 'Content-Type': 'application/octet-stream' },
      });
      expect(wrong.status).toBe(422);
      const put = await api.request('PUT', uploadUrl.pathname + uploadUrl.search, {
        raw: state.toString(),
        token: null,
        headers: { 'Content-Type': 'application/octet-stream' },
      });
      expect(put.status).toBe(200);
      const sv = await api.get(`/api/v2/state-versions/${created.body.data.id}`, { token: alice.token });
      expect(sv.body.data.attributes).toMatchObject({ status: 'finalized', 'resource-count': 3 });
      expect((await unlock(id, alice.token)).status).toBe(200);
      expect(
        (await api.get(`/api/v2/workspaces/${id}/current-state-version`, { token: alice.token })).body.data.id,
      ).toBe(created.body.data.id);
    });

    it('force-unlock does not wait for a pending upload and leaves the current version as it was', async () => {
      const id = await workspace();
      await lock(id, alice.token);
      await api.post(
        `/api/v2/workspaces/${id}/state-versions`,
        { data: { type: 'state-versions', attributes: { serial: 1, md5: '0'.repeat(32) } } },
        { token: alice.token },
      );
      expect((await forceUnlock(id, bob.token)).status).toBe(200);
      expect((await api.get(`/api/v2/workspaces/${id}/current-state-version`, { token: alice.token })).status).toBe(
        404,
      );
      // The abandoned upload no longer blocks later unlocks.
      await lock(id, alice.token);
      expect((await unlock(id, alice.token)).status).toBe(200);
    });
  });

  describe('safe delete and resources', () => {
    it('is refused while the workspace manages resources, allowed once a state without resources is current', async () => {
      const id = await workspace();
      await lock(id, alice.token);
      await api.post(`/api/v2/workspaces/${id}/state-versions`, svBody(fixture('state-small.json')), {
        token: alice.token,
      });
      await unlock(id, alice.token);
      const refused = await api.post(`/api/v2/workspaces/${id}/actions/safe-delete`, undefined, { token: alice.token });
      expect(refused.status).toBe(409);
      expect(refused.body.errors[0].detail).toBe(
        'workspace cannot be safely deleted because it is still managing resources',
      );
      await lock(id, alice.token);
      const locked = await api.post(`/api/v2/workspaces/${id}/actions/safe-delete`, undefined, { token: alice.token });
      expect(locked.status).toBe(409);
      expect(locked.body.errors[0].detail).toContain('locked');
      await api.post(`/api/v2/workspaces/${id}/state-versions`, svBody(fixture('state-empty.json')), {
        token: alice.token,
      });
      await unlock(id, alice.token);
      expect(
        (await api.get(`/api/v2/workspaces/${id}`, { token: alice.token })).body.data.attributes['resource-count'],
      ).toBe(0);
      expect(
        (await api.post(`/api/v2/workspaces/${id}/actions/safe-delete`, undefined, { token: alice.token })).status,
      ).toBe(204);
      expect((await api.get(`/api/v2/workspaces/${id}`, { token: alice.token })).status).toBe(404);
    });
  });
});
