import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessFixture, grantWorkspace, teamMember, type AccessFixture } from '../../helpers/access.js';
import { TestApi } from '../../helpers/api.js';
import { TestClock } from '../../helpers/clock.js';

/**
 * HCP Terraform's state rollback, `PATCH /workspaces/:id/state-versions` with
 * `relationships.rollback-state-version`: a new version with an earlier one's content, above the
 * current serial, in the current lineage; only for who may write the state, under their own lock.
 */

const P = '/api/v2';
const SMALL = readFileSync(new URL('../../fixtures/state-small.json', import.meta.url));
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
const svBody = (attributes: Record<string, unknown>) => ({ data: { type: 'state-versions', attributes } });
const rollbackBody = (id: string) => ({
  data: {
    type: 'state-versions',
    relationships: { 'rollback-state-version': { data: { type: 'state-versions', id } } },
  },
});
const path = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};
/** The fixture state with its serial, lineage and `url` output set (a later state of the same workspace). */
const stateWith = (serial: number, url: string, lineage?: string) => {
  const s = JSON.parse(SMALL.toString());
  return Buffer.from(
    `${JSON.stringify({ ...s, serial, lineage: lineage ?? s.lineage, outputs: { ...s.outputs, url: { value: url, type: 'string' } } }, null, 2)}\n`,
  );
};

describe('state rollback (PATCH /workspaces/:id/state-versions)', () => {
  let api: TestApi;
  let f: AccessFixture;
  let count = 0;
  const owner = () => ({ token: f.owner.token });

  async function workspace(): Promise<string> {
    const res = await api.post(
      `${P}/organizations/acme/workspaces`,
      { data: { type: 'workspaces', attributes: { name: `rb-${++count}` } } },
      owner(),
    );
    expect(res.status, res.text).toBe(201);
    return res.body.data.id;
  }
  const lock = async (id: string, token = f.owner.token) =>
    expect((await api.post(`${P}/workspaces/${id}/actions/lock`, {}, { token })).status).toBe(200);
  const unlock = async (id: string, token = f.owner.token) =>
    expect((await api.post(`${P}/workspaces/${id}/actions/unlock`, undefined, { token })).status).toBe(200);
  /** Pushes `state` as a new current version (locks, creates, unlocks). */
  async function push(id: string, state: Buffer, extra: Record<string, unknown> = {}): Promise<any> {
    await lock(id);
    const parsed = JSON.parse(state.toString());
    const res = await api.post(
      `${P}/workspaces/${id}/state-versions`,
      svBody({
        serial: parsed.serial,
        lineage: parsed.lineage,
        md5: md5(state),
        state: state.toString('base64'),
        ...extra,
      }),
      owner(),
    );
    expect(res.status, res.text).toBe(201);
    await unlock(id);
    return res.body.data;
  }
  const rollback = (id: string, body: unknown, token = f.owner.token) =>
    api.request('PATCH', `${P}/workspaces/${id}/state-versions`, { body, token });
  const versions = async (id: string) => (await api.get(`${P}/workspaces/${id}/state-versions`, owner())).body.data;
  const download = async (sv: any) =>
    (await api.request('GET', path(sv.attributes['hosted-state-download-url']), { token: null })).text;

  beforeAll(async () => {
    api = await TestApi.create({ clock: new TestClock() });
    f = await accessFixture(api);
  });
  afterAll(() => api.close());

  it('makes a new version with the old content, serial above the current one, lineage kept; current at unlock', async () => {
    const id = await workspace();
    const first = await push(id, SMALL);
    const later = stateWith(7, 'https://later.test');
    const current = await push(id, later);
    await lock(id);
    const res = await rollback(id, rollbackBody(first.id));
    expect(res.status, res.text).toBe(201);
    const sv = res.body.data;
    expect(sv.id).not.toBe(first.id);
    expect(sv.attributes).toMatchObject({
      serial: 8,
      lineage: first.attributes.lineage,
      status: 'finalized',
      intermediate: true,
      current: false,
      'resource-count': first.attributes['resource-count'],
      resources: first.attributes.resources,
    });
    expect(sv.relationships['rollback-state-version']).toEqual({
      data: { type: 'state-versions', id: first.id },
      links: { related: `${P}/state-versions/${first.id}` },
    });
    // The content: the old state byte for byte, but for its serial.
    const body = await download(sv);
    expect(body).toBe(SMALL.toString().replace('"serial": 3', '"serial": 8'));
    expect(sv.attributes.md5).toBe(md5(Buffer.from(body)));
    // Until the unlock the workspace keeps its state; then the rollback is current.
    expect((await api.get(`${P}/workspaces/${id}/current-state-version`, owner())).body.data.id).toBe(current.id);
    await unlock(id);
    const now = (await api.get(`${P}/workspaces/${id}/current-state-version?include=outputs`, owner())).body;
    expect(now.data.id).toBe(sv.id);
    expect(now.data.relationships['rollback-state-version'].data.id).toBe(first.id);
    const url = now.included.find((o: any) => o.attributes.name === 'url');
    expect(url.attributes.value).toBe('https://example.test');
    // Versions that were no rollback say so.
    expect(current.relationships['rollback-state-version']).toEqual({ data: null });
    expect((await api.get(`${P}/workspaces/${id}`, owner())).body.data.attributes['resource-count']).toBe(
      first.attributes['resource-count'],
    );
  });

  it('keeps every other byte of the state: numbers past 2^53, key order, unusual spacing', async () => {
    const id = await workspace();
    const odd = Buffer.from(
      '{"version":4,"terraform_version":"1.9.4","serial":1,"lineage":"odd-lineage","outputs":{"big":{"value":12345678901234567890123,"type":"number"}},' +
        '"resources":[{"mode":"managed","type":"null_resource","name":"x","provider":"provider[\\"registry.terraform.io/hashicorp/null\\"]",' +
        '"instances":[{"schema_version":0,"attributes":{"triggers":{"b":"1","10":"2","2":"3"},"id":"9007199254740993"}}]}]}',
    );
    const first = await push(id, odd);
    await push(id, stateWith(2, 'x', 'odd-lineage'));
    await lock(id);
    const res = await rollback(id, rollbackBody(first.id));
    expect(res.status, res.text).toBe(201);
    expect(await download(res.body.data)).toBe(odd.toString().replace('"serial":1', '"serial":3'));
    const outputs = (await api.get(`${P}/state-versions/${res.body.data.id}/outputs`, owner())).body.data;
    expect(outputs.map((o: any) => o.attributes.name)).toEqual(['big']);
  });

  it("rewrites the old state's lineage to the current one when a forced push changed it", async () => {
    const id = await workspace();
    const first = await push(id, SMALL);
    await push(id, stateWith(0, 'https://other.test', 'other-lineage'), { force: true });
    await lock(id);
    const res = await rollback(id, rollbackBody(first.id));
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.attributes).toMatchObject({ serial: 1, lineage: 'other-lineage' });
    const state = JSON.parse(await download(res.body.data));
    expect(state).toEqual({ ...JSON.parse(SMALL.toString()), serial: 1, lineage: 'other-lineage' });
    await unlock(id);
    // The next push of the rolled-back state, as terraform would write it, follows in the lineage.
    await lock(id);
    const next = stateWith(2, 'y', 'other-lineage');
    const pushed = await api.post(
      `${P}/workspaces/${id}/state-versions`,
      svBody({ serial: 2, lineage: 'other-lineage', md5: md5(next), state: next.toString('base64') }),
      owner(),
    );
    expect(pushed.status, pushed.text).toBe(201);
  });

  it('copies the JSON state when the old version has one', async () => {
    const id = await workspace();
    const json = Buffer.from('{"format_version":"1.0","values":{"outputs":{}}}');
    const first = await push(id, SMALL, { 'json-state': json.toString('base64') });
    await push(id, stateWith(4, 'z'));
    await lock(id);
    const res = await rollback(id, rollbackBody(first.id));
    expect(res.status, res.text).toBe(201);
    const url = res.body.data.attributes['hosted-json-state-download-url'];
    expect((await api.request('GET', path(url), { token: null })).text).toBe(json.toString());
  });

  it('refuses a caller without the lock (409, as a create), or whose lock is not theirs (409); nothing stored', async () => {
    const id = await workspace();
    const first = await push(id, SMALL);
    await push(id, stateWith(4, 'z'));
    const unlocked = await rollback(id, rollbackBody(first.id));
    expect(unlocked.status, unlocked.text).toBe(409);
    expect(unlocked.body.errors[0]).toMatchObject({
      status: '409',
      detail: 'The workspace must be locked by you before you roll back its state',
    });
    const writer = await teamMember(f, `writer-${count}`);
    await grantWorkspace(f, writer.teamId, id, 'write');
    await lock(id, writer.token);
    expect((await rollback(id, rollbackBody(first.id))).status).toBe(409);
    await unlock(id, writer.token);
    expect(await versions(id)).toHaveLength(2);
  });

  it('404 for who may not write the state, for another workspace’s version and for an unknown one', async () => {
    const id = await workspace();
    const first = await push(id, SMALL);
    await push(id, stateWith(4, 'z'));
    const other = await workspace();
    const foreign = await push(other, SMALL);
    const reader = await teamMember(f, `reader-${count}`);
    await grantWorkspace(f, reader.teamId, id, 'read');
    // A reader cannot lock; hold the owner's lock to be sure the refusal is the permission's.
    await lock(id);
    const refused = await rollback(id, rollbackBody(first.id), reader.token);
    expect(refused.status, refused.text).toBe(404);
    expect(refused.body.errors[0].detail).toBe(
      'not found, or you are not authorized to roll back the state of this workspace',
    );
    const stranger = await api.userToken(`stranger-${count}`);
    expect((await rollback(id, rollbackBody(first.id), stranger.token)).status).toBe(404);
    for (const sv of [foreign.id, 'sv-0000000000000000']) {
      const res = await rollback(id, rollbackBody(sv));
      expect(res.status, res.text).toBe(404);
      expect(res.body.errors[0].detail).toBe(`state version ${sv} not found in this workspace`);
    }
    expect(await versions(id)).toHaveLength(2);
  });

  it('422 for a version without its state: pending, soft-deleted, permanently deleted', async () => {
    const id = await workspace();
    const first = await push(id, SMALL);
    await push(id, stateWith(4, 'z'));
    await lock(id);
    const pending = await api.post(
      `${P}/workspaces/${id}/state-versions`,
      svBody({ serial: 9, md5: md5(SMALL) }),
      owner(),
    );
    expect(pending.status).toBe(201);
    const pointer = '/data/relationships/rollback-state-version/data/id';
    const refusal = async (sv: string) => {
      const res = await rollback(id, rollbackBody(sv));
      expect(res.status, res.text).toBe(422);
      expect(res.body.errors[0].source).toEqual({ pointer });
      return res.body.errors[0].detail as string;
    };
    expect(await refusal(pending.body.data.id)).toContain('its upload is still pending');
    await api.request('POST', `${P}/workspaces/${id}/actions/force-unlock`, owner());
    const act = (action: string) => api.post(`${P}/state-versions/${first.id}/actions/${action}`, undefined, owner());
    expect((await act('soft_delete_backing_data')).status).toBe(204);
    await lock(id);
    expect(await refusal(first.id)).toContain('soft-deleted (restore it first');
    expect((await act('permanently_delete_backing_data')).status).toBe(204);
    expect(await refusal(first.id)).toContain('permanently deleted');
    expect(await versions(id)).toHaveLength(3);
  });

  it('422 for a malformed body, nothing stored', async () => {
    const id = await workspace();
    const first = await push(id, SMALL);
    await lock(id);
    const bodies: [unknown, string][] = [
      [{ data: { type: 'state-versions' } }, '/data/relationships/rollback-state-version'],
      [
        { data: { type: 'state-versions', relationships: { 'rollback-state-version': { data: [] } } } },
        '/data/relationships/rollback-state-version/data',
      ],
      [
        {
          data: {
            type: 'state-versions',
            relationships: { 'rollback-state-version': { data: { type: 'runs', id: first.id } } },
          },
        },
        '/data/relationships/rollback-state-version/data/type',
      ],
      [
        {
          data: {
            type: 'state-versions',
            relationships: { 'rollback-state-version': { data: { type: 'state-versions' } } },
          },
        },
        '/data/relationships/rollback-state-version/data/id',
      ],
      [
        { data: { type: 'state-versions', relationships: { 'rollback-state-version': 5 } } },
        '/data/relationships/rollback-state-version',
      ],
      [{ data: { type: 'runs', relationships: rollbackBody(first.id).data.relationships } }, '/data/type'],
    ];
    for (const [body, pointer] of bodies) {
      const res = await rollback(id, body);
      expect(res.status, JSON.stringify(body)).toBe(422);
      expect(res.body.errors[0].source.pointer, JSON.stringify(body)).toBe(pointer);
    }
    expect(await versions(id)).toHaveLength(1);
  });

  it('is recorded in the audit trail, naming the new version and the one it restored', async () => {
    const id = await workspace();
    const first = await push(id, SMALL);
    await push(id, stateWith(4, 'z'));
    await lock(id);
    const res = await rollback(id, rollbackBody(first.id));
    expect(res.status, res.text).toBe(201);
    const trail = await api.get(`${P}/organizations/acme/audit-trail?filter[workspace]=${id}`, owner());
    const record = trail.body.data.find((e: any) => e.attributes.action === 'state-version.rollback');
    expect(record.attributes).toMatchObject({
      'target-type': 'state-versions',
      'target-id': res.body.data.id,
      'target-name': `rollback to ${first.id}`,
      'workspace-id': id,
      'request-id': res.headers.get('x-request-id'),
    });
  });
});
