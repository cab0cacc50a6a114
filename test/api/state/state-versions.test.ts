import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accessFixture, teamMember, teamWorkspaceBody, type AccessFixture } from '../../helpers/access.js';
import { TestApi } from '../../helpers/api.js';
import { TestClock } from '../../helpers/clock.js';

/**
 * State versions, their outputs and the workspace's resources as go-tfe and the Terraform CLI
 * read and write them (the wire shapes their own tests check).
 */

const P = '/api/v2';
const STATE = readFileSync(new URL('../../fixtures/state-module.json', import.meta.url));
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
const b64 = (b: Buffer) => b.toString('base64');
const svBody = (attributes: Record<string, unknown>) => ({ data: { type: 'state-versions', attributes } });
const path = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};

describe('state versions, outputs and resources', () => {
  let api: TestApi;
  let f: AccessFixture;
  let count = 0;
  const owner = () => ({ token: f.owner.token });

  async function workspace(): Promise<{ id: string; name: string }> {
    const name = `st-${++count}`;
    const res = await api.post(
      `${P}/organizations/acme/workspaces`,
      { data: { type: 'workspaces', attributes: { name } } },
      owner(),
    );
    expect(res.status, res.text).toBe(201);
    return { id: res.body.data.id, name };
  }
  const lock = async (id: string) =>
    expect((await api.post(`${P}/workspaces/${id}/actions/lock`, {}, owner())).status).toBe(200);
  const unlock = async (id: string) =>
    expect((await api.post(`${P}/workspaces/${id}/actions/unlock`, undefined, owner())).status).toBe(200);
  const create = (id: string, attributes: Record<string, unknown>) =>
    api.post(`${P}/workspaces/${id}/state-versions`, svBody(attributes), owner());
  /** Pushes the fixture state under serial `serial` (go-tfe's test helper sends 0 for a state at 7). */
  async function push(id: string, serial = 0): Promise<any> {
    await lock(id);
    const res = await create(id, { serial, md5: md5(STATE), state: b64(STATE) });
    expect(res.status, res.text).toBe(201);
    await unlock(id);
    return res.body.data;
  }

  beforeAll(async () => {
    // The signed URLs' expiries come from the clock: a fixed one, so that two answers compared
    // whole carry the same URLs even when the requests fall either side of a second boundary.
    api = await TestApi.create({ clock: new TestClock() });
    f = await accessFixture(api);
  });
  afterAll(() => api.close());

  describe('create', () => {
    it("keeps the serial and lineage given, even when the state's own differ (as HCP Terraform does)", async () => {
      const { id } = await workspace();
      await lock(id);
      const res = await create(id, { serial: 1, lineage: 'given-lineage', md5: md5(STATE), state: b64(STATE) });
      expect(res.status, res.text).toBe(201);
      expect(res.body.data.attributes).toMatchObject({ serial: 1, lineage: 'given-lineage', status: 'finalized' });
      // Without a lineage, the version takes the state's own.
      const bare = await create(id, { serial: 2, md5: md5(STATE), state: b64(STATE) });
      expect(bare.body.data.attributes.lineage).toBe('0c6a3c2e-4b8d-4f0e-9a51-7d2e8f1b3c44');
    });

    it('refuses a serial going back in its lineage (422) or a lineage unlike the current one (409, as HCP Terraform), unless force', async () => {
      const { id } = await workspace();
      await lock(id);
      expect((await create(id, { serial: 5, lineage: 'a', md5: md5(STATE), state: b64(STATE) })).status).toBe(201);
      await unlock(id);
      await lock(id);
      const back = await create(id, { serial: 4, lineage: 'a', md5: md5(STATE), state: b64(STATE) });
      expect(back.status).toBe(422);
      expect(back.body.errors[0].source.pointer).toBe('/data/attributes/serial');
      const other = await create(id, { serial: 9, lineage: 'b', md5: md5(STATE), state: b64(STATE) });
      expect(other.status, other.text).toBe(409);
      expect(other.body.errors[0]).toMatchObject({
        status: '409',
        title: 'conflict',
        detail: "Lineage does not match the current state's lineage a (set force to replace it)",
        source: { pointer: '/data/attributes/lineage' },
      });
      expect((await api.get(`${P}/workspaces/${id}/state-versions`, owner())).body.data).toHaveLength(1);
      const forced = await create(id, { serial: 1, lineage: 'b', md5: md5(STATE), state: b64(STATE), force: true });
      expect(forced.status, forced.text).toBe(201);
      await unlock(id);
      await lock(id);
      // The same serial again is no step back (go-tfe's tests push serial 1 several times).
      expect((await create(id, { serial: 1, lineage: 'b', md5: md5(STATE), state: b64(STATE) })).status).toBe(201);
    });

    it('rejects malformed json-state, json-state-outputs and force (422, nothing stored)', async () => {
      const { id } = await workspace();
      await lock(id);
      const base = { serial: 1, md5: md5(STATE), state: b64(STATE) };
      for (const bad of [
        { 'json-state': '%%%' },
        { 'json-state': b64(Buffer.from('not json')) },
        { 'json-state-outputs': '%%%' },
        { force: 'yes' },
      ]) {
        const res = await create(id, { ...base, ...bad });
        expect(res.status, JSON.stringify(bad)).toBe(422);
      }
      expect((await api.get(`${P}/workspaces/${id}/state-versions`, owner())).body.data).toEqual([]);
    });

    it('takes an empty json-state and json-state-outputs as absent (the Terraform CLI 1.1-1.5 sends them so)', async () => {
      const { id } = await workspace();
      await lock(id);
      const res = await create(id, {
        serial: 1,
        md5: md5(STATE),
        state: b64(STATE),
        'json-state': '',
        'json-state-outputs': '',
      });
      expect(res.status, res.text).toBe(201);
      expect(res.body.data.attributes).toMatchObject({
        status: 'finalized',
        'hosted-json-state-download-url': null,
      });
      await unlock(id);
    });
  });

  describe('documents', () => {
    it('carry what go-tfe reads: state-version, billable-rum-count, resources, modules, providers, outputs', async () => {
      const { id } = await workspace();
      const sv = await push(id);
      const read = (await api.get(`${P}/state-versions/${sv.id}`, owner())).body.data;
      expect(read.attributes).toMatchObject({
        serial: 0,
        status: 'finalized',
        'resources-processed': true,
        'state-version': 4,
        'terraform-version': '1.9.4',
        'resource-count': 3,
        'billable-rum-count': 3,
        size: STATE.length,
        'hosted-state-upload-url': null,
        'hosted-json-state-download-url': null,
        'vcs-commit-sha': null,
      });
      expect(read.attributes.resources).toEqual([
        {
          name: 'this',
          type: 'aws_s3_bucket',
          count: 2,
          module: 'module.bucket',
          provider: 'provider["registry.terraform.io/hashicorp/aws"]',
        },
        {
          name: 'name',
          type: 'random_pet',
          count: 1,
          module: 'root',
          provider: 'provider["registry.terraform.io/hashicorp/random"]',
        },
        {
          name: 'network',
          type: 'data.terraform_remote_state',
          count: 1,
          module: 'root',
          provider: 'provider["terraform.io/builtin/terraform"]',
        },
      ]);
      expect(read.attributes.modules).toEqual({
        'module.bucket': { 'aws-s3-bucket': 2 },
        root: { 'random-pet': 1, 'data.terraform-remote-state': 1 },
      });
      expect(read.attributes.providers).toEqual({
        'provider["registry.terraform.io/hashicorp/aws"]': { 'aws-s3-bucket': 2 },
        'provider["registry.terraform.io/hashicorp/random"]': { 'random-pet': 1 },
        'provider["terraform.io/builtin/terraform"]': { 'data.terraform-remote-state': 1 },
      });
      expect(read.relationships.outputs.data).toHaveLength(7);
      expect(read.relationships.outputs.data[0]).toEqual({
        type: 'state-version-outputs',
        id: expect.stringMatching(/^wsout-[A-Za-z0-9]{16}$/),
      });
      // Its URLs are signed for the clock's time (fixed in this file) plus the default five minutes.
      const expires = api.clock.now().getTime() / 1000 + 300;
      expect(read.attributes['hosted-state-download-url']).toContain(`/content?expires=${expires}&signature=`);
      // Read, current and list serialise it alike; the create answered the same but for the lock window.
      expect((await api.get(`${P}/workspaces/${id}/current-state-version`, owner())).body.data).toEqual(read);
      expect((await api.get(`${P}/workspaces/${id}/state-versions`, owner())).body.data).toEqual([read]);
      const lockWindow = ['intermediate', 'current', 'hosted-json-state-upload-url'];
      const without = (d: any) =>
        Object.fromEntries(Object.entries(d.attributes).filter(([k]) => !lockWindow.includes(k)));
      expect(without(sv)).toEqual(without(read));
      expect(sv.attributes).toMatchObject({ intermediate: true, current: false });
      expect(read.attributes).toMatchObject({ intermediate: false, current: true });
    });

    it('include=outputs sideloads the outputs, values and all, on read and on current', async () => {
      const { id } = await workspace();
      const sv = await push(id);
      for (const url of [`${P}/state-versions/${sv.id}`, `${P}/workspaces/${id}/current-state-version`]) {
        const res = await api.get(`${url}?include=outputs`, owner());
        expect(res.status).toBe(200);
        expect(res.body.included.map((o: any) => o.id)).toEqual(sv.relationships.outputs.data.map((o: any) => o.id));
        expect(res.body.included.find((o: any) => o.attributes.name === 'token').attributes.value).toBe('s3cr3t');
      }
      expect((await api.get(`${P}/state-versions/${sv.id}?include=nope`, owner())).status).toBe(400);
    });

    it('GET /state-versions lists a workspace named by its two filters, newest first, paginated', async () => {
      const ws = await workspace();
      const first = await push(ws.id, 0);
      const second = await push(ws.id, 1);
      const q = `filter%5Borganization%5D%5Bname%5D=acme&filter%5Bworkspace%5D%5Bname%5D=${ws.name}`;
      const list = await api.get(`${P}/state-versions?${q}`, owner());
      expect(list.status).toBe(200);
      expect(list.body.data.map((v: any) => v.id)).toEqual([second.id, first.id]);
      const beyond = await api.get(`${P}/state-versions?${q}&page%5Bnumber%5D=999&page%5Bsize%5D=100`, owner());
      expect(beyond.body.data).toEqual([]);
      expect(beyond.body.meta.pagination).toMatchObject({ 'current-page': 999, 'total-count': 2 });
      const missing = await api.get(`${P}/state-versions?filter%5Bworkspace%5D%5Bname%5D=${ws.name}`, owner());
      expect(missing.status).toBe(400);
      expect(missing.body.errors[0].source.parameter).toBe('filter[organization][name]');
      expect(
        (await api.get(`${P}/state-versions?filter[organization][name]=acme&filter[workspace][name]=nope`, owner()))
          .status,
      ).toBe(404);
    });
  });

  describe('the upload flow (go-tfe Upload, the Terraform CLI)', () => {
    it('pending with both upload URLs, then the raw and JSON states PUT there, served back byte for byte', async () => {
      const { id } = await workspace();
      await lock(id);
      const created = await create(id, { serial: 8, md5: md5(STATE), lineage: 'l' });
      expect(created.status).toBe(201);
      const a = created.body.data.attributes;
      expect(a).toMatchObject({ status: 'pending', 'resources-processed': false, 'hosted-state-download-url': null });
      expect(a.resources).toBeNull();
      expect(a['billable-rum-count']).toBeNull();
      expect(a['hosted-state-upload-url']).toMatch(
        /^http:\/\/berth\.test\/api\/v2\/state-versions\/sv-[A-Za-z0-9]{16}\/content\?expires=\d+&signature=[\w-]{43}$/,
      );
      expect(a['hosted-json-state-upload-url']).toMatch(/\/json-content\?expires=\d+&signature=[\w-]{43}$/);
      const put = (url: string, raw: string) =>
        api.request('PUT', path(url), { raw, token: null, headers: { 'Content-Type': 'application/octet-stream' } });
      const json = '{"format_version":"1.0","values":{}}';
      expect((await put(a['hosted-json-state-upload-url'], 'not json')).status).toBe(422);
      expect((await put(a['hosted-json-state-upload-url'], json)).status).toBe(200);
      // Taken once: the same file again (a retry whose answer was lost) is a 200 that changes nothing.
      expect((await put(a['hosted-json-state-upload-url'], json)).status).toBe(200);
      expect((await put(a['hosted-json-state-upload-url'], '{"other":1}')).status).toBe(409);
      expect((await put(a['hosted-state-upload-url'], STATE.toString())).status).toBe(200);
      expect((await put(a['hosted-state-upload-url'], STATE.toString())).status).toBe(200);
      expect((await put(a['hosted-state-upload-url'], '{"version":4}')).status).toBe(409);
      const sv = (await api.get(`${P}/state-versions/${created.body.data.id}`, owner())).body.data;
      expect(sv.attributes).toMatchObject({
        status: 'finalized',
        'resource-count': 3,
        'hosted-state-upload-url': null,
      });
      expect(sv.attributes['hosted-json-state-upload-url']).toBeNull();
      const raw = await api.request('GET', path(sv.attributes['hosted-state-download-url']), { token: null });
      expect(raw.text).toBe(STATE.toString());
      const js = await api.request('GET', path(sv.attributes['hosted-json-state-download-url']), { token: null });
      expect(js.text).toBe(json);
      // A state holds secrets: no cache keeps it, no browser sniffs it or shows it in place.
      for (const [res, file] of [
        [raw, `${sv.id}.tfstate`],
        [js, `${sv.id}.json`],
      ] as const) {
        expect(res.headers.get('cache-control')).toBe('no-store');
        expect(res.headers.get('x-content-type-options')).toBe('nosniff');
        expect(res.headers.get('content-disposition')).toBe(`attachment; filename="${file}"`);
      }
      await unlock(id);
    });

    it('stores the bytes uploaded, also when they are not UTF-8, and serves them back unchanged', async () => {
      const { id } = await workspace();
      const bytes = Buffer.concat([
        Buffer.from('{"version":4,"serial":1,"lineage":"x","outputs":{"o":{"value":"'),
        Buffer.from([0xff, 0xfe, 0xe9]),
        Buffer.from('","type":"string"}},"resources":[]}'),
      ]);
      await lock(id);
      const created = await create(id, { serial: 1, md5: md5(bytes), state: b64(bytes) });
      expect(created.status, created.text).toBe(201);
      await unlock(id);
      const url = new URL(created.body.data.attributes['hosted-state-download-url']);
      const res = await api.app.fetch(new Request(`http://berth.test${url.pathname}${url.search}`));
      expect(Buffer.from(await res.arrayBuffer()).equals(bytes)).toBe(true);
    });

    it('a JSON state is taken only while the version is pending or not yet released by an unlock', async () => {
      const { id } = await workspace();
      const sv = await push(id);
      expect(sv.attributes['hosted-json-state-upload-url']).toEqual(expect.stringContaining('/json-content?expires='));
      const read = (await api.get(`${P}/state-versions/${sv.id}`, owner())).body.data;
      expect(read.attributes['hosted-json-state-upload-url']).toBeNull();
      const late = await api.request('PUT', path(sv.attributes['hosted-json-state-upload-url']), {
        raw: '{}',
        token: null,
        headers: { 'Content-Type': 'application/octet-stream' },
      });
      expect(late.status).toBe(409);
      const wrong = path(sv.attributes['hosted-json-state-upload-url']).replace(/signature=.*/, 'signature=guess');
      expect((await api.request('PUT', wrong, { raw: '{}', token: null })).status).toBe(404);
    });
  });

  describe('outputs', () => {
    it('lists a version outputs with values (sensitive too), coarse type and detailed-type, paginated', async () => {
      const { id } = await workspace();
      const sv = await push(id);
      const res = await api.get(`${P}/state-versions/${sv.id}/outputs`, owner());
      expect(res.status).toBe(200);
      expect(
        res.body.data.map((o: any) => [
          o.attributes.name,
          o.attributes.type,
          o.attributes.sensitive,
          o.attributes.value,
        ]),
      ).toEqual([
        ['zones', 'array', false, ['eu-west-1a', 'eu-west-1b']],
        ['token', 'string', true, 's3cr3t'],
        ['pair', 'array', false, [1, 'two']],
        ['labels', 'object', false, { team: 'ops' }],
        ['settings', 'object', false, { size: 3 }],
        ['replicas', 'number', false, 3],
        ['enabled', 'boolean', false, true],
      ]);
      expect(res.body.data[0]).toEqual({
        id: sv.relationships.outputs.data[0].id,
        type: 'state-version-outputs',
        attributes: {
          name: 'zones',
          sensitive: false,
          type: 'array',
          value: ['eu-west-1a', 'eu-west-1b'],
          'detailed-type': ['list', 'string'],
        },
        links: { self: `${P}/state-version-outputs/${sv.relationships.outputs.data[0].id}` },
      });
      const beyond = await api.get(`${P}/state-versions/${sv.id}/outputs?page[number]=999&page[size]=100`, owner());
      expect(beyond.body.data).toEqual([]);
      expect(beyond.body.meta.pagination).toMatchObject({ 'current-page': 999, 'total-count': 7 });
      expect((await api.get(`${P}/state-versions/sv-999999999/outputs`, owner())).status).toBe(404);
    });

    it('shows one output by id (sensitive value included); 404 for an unknown id', async () => {
      const { id } = await workspace();
      const sv = await push(id);
      const tokenId = sv.relationships.outputs.data[1].id;
      const res = await api.get(`${P}/state-version-outputs/${tokenId}`, owner());
      expect(res.body.data.attributes).toMatchObject({ name: 'token', sensitive: true, value: 's3cr3t' });
      expect((await api.get(`${P}/state-version-outputs/wsout-J2zM24JPAAAAAAAA`, owner())).status).toBe(404);
    });

    it('current-state-version-outputs: every output of the current state, sensitive values null; none before a state', async () => {
      const { id } = await workspace();
      const empty = await api.get(`${P}/workspaces/${id}/current-state-version-outputs`, owner());
      expect(empty.status).toBe(200);
      expect(empty.body.data).toEqual([]);
      const sv = await push(id);
      const res = await api.get(`${P}/workspaces/${id}/current-state-version-outputs`, owner());
      expect(res.body.data.map((o: any) => o.id)).toEqual(sv.relationships.outputs.data.map((o: any) => o.id));
      const token = res.body.data.find((o: any) => o.attributes.name === 'token');
      expect(token.attributes).toMatchObject({ sensitive: true, value: null, 'detailed-type': 'string' });
      expect(res.body.meta.pagination).toMatchObject({ 'total-count': 7, 'total-pages': 1 });
      const paged = await api.get(`${P}/workspaces/${id}/current-state-version-outputs?page[size]=2`, owner());
      expect(paged.body.data).toHaveLength(2);
    });

    it('the workspace include=outputs: the same ids, coarse output-type, sensitive values null', async () => {
      const ws = await workspace();
      const sv = await push(ws.id);
      const res = await api.get(`${P}/organizations/acme/workspaces/${ws.name}?include=outputs`, owner());
      const outputs = res.body.included.filter((r: any) => r.type === 'workspace-outputs');
      expect(outputs.map((o: any) => o.id)).toEqual(sv.relationships.outputs.data.map((o: any) => o.id));
      expect(res.body.data.relationships.outputs.data).toHaveLength(7);
      expect(outputs.map((o: any) => o.attributes['output-type'])).toEqual([
        'array',
        'string',
        'array',
        'object',
        'object',
        'number',
        'boolean',
      ]);
      expect(outputs[1].attributes).toEqual({ name: 'token', sensitive: true, 'output-type': 'string', value: null });
    });
  });

  describe('workspace resources', () => {
    it("lists the current state's managed instances as go-tfe reads them, paginated; none before a state", async () => {
      const { id } = await workspace();
      expect((await api.get(`${P}/workspaces/${id}/resources`, owner())).body.data).toEqual([]);
      const sv = await push(id);
      const res = await api.get(`${P}/workspaces/${id}/resources`, owner());
      expect(res.status).toBe(200);
      const day = sv.attributes['created-at'].slice(0, 10);
      expect(res.body.data.map((r: any) => r.attributes)).toEqual([
        {
          address: 'bucket.aws_s3_bucket.this[0]',
          name: 'this',
          'created-at': day,
          'updated-at': day,
          module: 'bucket',
          provider: 'hashicorp/aws',
          'provider-type': 'aws_s3_bucket',
          'modified-by-state-version-id': sv.id,
          'name-index': '0',
        },
        expect.objectContaining({ address: 'bucket.aws_s3_bucket.this[1]', 'name-index': '1' }),
        expect.objectContaining({
          address: 'random_pet.name["blue"]',
          module: 'root',
          provider: 'hashicorp/random',
          'name-index': '"blue"',
        }),
      ]);
      expect(res.body.data[0]).toMatchObject({ type: 'resources', id: expect.stringMatching(/^wsr-[A-Za-z0-9]{16}$/) });
      const beyond = await api.get(`${P}/workspaces/${id}/resources?page[number]=999&page[size]=100`, owner());
      expect(beyond.body.data).toEqual([]);
      expect(beyond.body.meta.pagination).toMatchObject({ 'current-page': 999, 'total-count': 3 });
    });
  });

  describe('who may read', () => {
    it('read-outputs access reads current outputs but not the state versions, nor resources (404)', async () => {
      const { id } = await workspace();
      const sv = await push(id);
      const member = await teamMember(f, 'outputs-only');
      const grant = await api.post(
        `${P}/team-workspaces`,
        teamWorkspaceBody(member.teamId, id, {
          access: 'custom',
          runs: 'read',
          variables: 'none',
          'state-versions': 'read-outputs',
        }),
        owner(),
      );
      expect(grant.status, grant.text).toBe(200);
      const t = { token: member.token };
      expect((await api.get(`${P}/workspaces/${id}/current-state-version-outputs`, t)).status).toBe(200);
      expect((await api.get(`${P}/state-versions/${sv.id}/outputs`, t)).status).toBe(200);
      expect((await api.get(`${P}/state-version-outputs/${sv.relationships.outputs.data[0].id}`, t)).status).toBe(200);
      expect((await api.get(`${P}/state-versions/${sv.id}`, t)).status).toBe(404);
      expect((await api.get(`${P}/workspaces/${id}/current-state-version`, t)).status).toBe(404);
      expect((await api.get(`${P}/workspaces/${id}/resources`, t)).status).toBe(404);
      const stranger = await api.userToken('stranger');
      const s = { token: stranger.token };
      expect((await api.get(`${P}/workspaces/${id}/current-state-version-outputs`, s)).status).toBe(404);
      expect((await api.get(`${P}/state-version-outputs/${sv.relationships.outputs.data[0].id}`, s)).status).toBe(404);
      expect((await api.get(`${P}/workspaces/${id}/resources`, s)).status).toBe(404);
    });
  });

  describe('backing data (self-hosted edition)', () => {
    it('soft-deletes, restores and permanently deletes the state of a released, non-current version', async () => {
      const { id } = await workspace();
      const old = await push(id, 0);
      const current = await push(id, 0);
      const download = () =>
        api.request('GET', path(old.attributes['hosted-state-download-url']), { token: null }).then((r) => r.status);
      const act = (sv: string, action: string) =>
        api.post(`${P}/state-versions/${sv}/actions/${action}`, undefined, owner());
      const statusOf = async (sv: string) =>
        (await api.get(`${P}/state-versions/${sv}`, owner())).body.data.attributes.status;

      expect((await act(old.id, 'soft_delete_backing_data')).status).toBe(204);
      expect(await statusOf(old.id)).toBe('backing_data_soft_deleted');
      expect(await download()).toBe(404);
      expect((await act(old.id, 'restore_backing_data')).status).toBe(204);
      expect(await statusOf(old.id)).toBe('finalized');
      expect(await download()).toBe(200);
      const early = await act(old.id, 'permanently_delete_backing_data');
      expect(early.status).toBe(422);
      expect(early.body.errors[0].detail).toContain('transition not allowed');
      expect((await act(old.id, 'soft_delete_backing_data')).status).toBe(204);
      expect((await act(old.id, 'permanently_delete_backing_data')).status).toBe(204);
      expect(await statusOf(old.id)).toBe('backing_data_permanently_deleted');
      const restore = await act(old.id, 'restore_backing_data');
      expect(restore.status).toBe(422);
      expect(restore.body.errors[0].detail).toContain('transition not allowed');
      expect(await download()).toBe(404);
      expect(
        await api.store.db.selectFrom('state_files').select('kind').where('state_version_id', '=', old.id).execute(),
      ).toEqual([]);
      // The current version keeps its state.
      expect((await act(current.id, 'soft_delete_backing_data')).status).toBe(422);
    });

    it('needs workspace admin access (404), and is not there in the hosted edition (404)', async () => {
      const { id } = await workspace();
      const old = await push(id, 0);
      await push(id, 0);
      const reader = await teamMember(f, 'state-reader');
      expect(
        (await api.post(`${P}/team-workspaces`, teamWorkspaceBody(reader.teamId, id, { access: 'write' }), owner()))
          .status,
      ).toBe(200);
      const res = await api.post(`${P}/state-versions/${old.id}/actions/soft_delete_backing_data`, undefined, {
        token: reader.token,
      });
      expect(res.status).toBe(404);

      const hosted = await TestApi.create({ settings: { edition: 'hosted' } });
      try {
        const h = await accessFixture(hosted);
        const res2 = await hosted.post(
          `${P}/state-versions/sv-AAAAAAAAAAAAAAAA/actions/soft_delete_backing_data`,
          undefined,
          {
            token: h.owner.token,
          },
        );
        expect(res2.status).toBe(404);
      } finally {
        await hosted.close();
      }
    });
  });
});
