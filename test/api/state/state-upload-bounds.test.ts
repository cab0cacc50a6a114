import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STATE_PARSE_LIMITS } from '../../../src/domain/state/state-parse.js';
import { TestApi } from '../../helpers/api.js';

/**
 * What parsing an uploaded state may cost is bounded (issue 19, item 2): nesting depth, JSON
 * values and resource instances. Beyond a bound the upload is a 422 that says which, and nothing
 * is stored. Big states are parsed on a worker thread: what it extracts is what the API shows.
 */

const P = '/api/v2';
const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
const state = (extra: string) =>
  Buffer.from(`{"version":4,"terraform_version":"1.9.0","serial":1,"lineage":"l",${extra}}`);
const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;
const { maxDepth, maxValues, maxInstances } = STATE_PARSE_LIMITS;

describe('state uploads: bounds of the parse', () => {
  let api: TestApi;
  let count = 0;

  /** A new workspace, locked. */
  async function pending(): Promise<{ wsId: string }> {
    const ws = await api.post(`${P}/organizations/acme/workspaces`, {
      data: { type: 'workspaces', attributes: { name: `b${++count}` } },
    });
    const wsId = ws.body.data.id as string;
    expect((await api.post(`${P}/workspaces/${wsId}/actions/lock`, {})).status).toBe(200);
    return { wsId };
  }
  async function createPending(wsId: string, body: Buffer) {
    const sv = await api.post(`${P}/workspaces/${wsId}/state-versions`, {
      data: { type: 'state-versions', attributes: { serial: 1, md5: md5(body) } },
    });
    expect(sv.status, sv.text).toBe(201);
    return sv.body.data as { id: string; attributes: Record<string, string> };
  }
  const put = (url: string, body: Buffer) => {
    const u = new URL(url);
    return api.app.fetch(
      new Request(`http://berth.test${u.pathname}${u.search}`, {
        method: 'PUT',
        body,
        headers: { 'Content-Type': 'application/octet-stream' },
      }),
    );
  };
  const errorOf = async (res: Response) => {
    expect(res.status).toBe(422);
    return ((await res.json()) as { errors: { detail: string; source?: { pointer: string } }[] }).errors[0];
  };
  const stored = async (id: string) => {
    const sv = (await api.get(`${P}/state-versions/${id}`)).body.data.attributes;
    const files = await api.store.db
      .selectFrom('state_files')
      .select('kind')
      .where('state_version_id', '=', id)
      .execute();
    return { status: sv.status as string, files: files.length };
  };

  beforeAll(async () => {
    api = await TestApi.create();
    expect((await api.createOrg('acme')).status).toBe(201);
  });
  afterAll(() => api.close());

  it(`refuses a state nested deeper than ${maxDepth} levels (422, nothing stored); at the bound it is taken`, async () => {
    const { wsId } = await pending();
    const deep = state(`"outputs":{"o":{"value":${nested(maxDepth)}}},"resources":[]`);
    const sv = await createPending(wsId, deep);
    const err = await errorOf(await put(sv.attributes['hosted-state-upload-url'], deep));
    expect(err.detail).toBe(`The state is too large to process: it nests deeper than ${maxDepth} levels`);
    expect(err.source?.pointer).toBe('/');
    expect(await stored(sv.id)).toEqual({ status: 'pending', files: 0 });
    const fits = state(`"outputs":{"o":{"value":${nested(maxDepth - 3)}}},"resources":[]`);
    const ok = await createPending(wsId, fits);
    expect((await put(ok.attributes['hosted-state-upload-url'], fits)).status).toBe(200);
    expect(await stored(ok.id)).toEqual({ status: 'finalized', files: 1 });
  });

  it(`refuses more than ${maxValues} JSON values, big enough for the worker thread (422, nothing stored)`, async () => {
    const { wsId } = await pending();
    const many = state(`"outputs":{"o":{"value":[${'0,'.repeat(maxValues)}0]}},"resources":[]`);
    const sv = await createPending(wsId, many);
    const err = await errorOf(await put(sv.attributes['hosted-state-upload-url'], many));
    expect(err.detail).toBe(`The state is too large to process: it holds more than ${maxValues} JSON values`);
    expect(await stored(sv.id)).toEqual({ status: 'pending', files: 0 });
  });

  it(`refuses more than ${maxInstances} resource instances (422, nothing stored)`, async () => {
    const { wsId } = await pending();
    const instances = `[${'{},'.repeat(maxInstances)}{}]`;
    const big = state(`"outputs":{},"resources":[{"mode":"managed","type":"t","name":"n","instances":${instances}}]`);
    const sv = await createPending(wsId, big);
    const err = await errorOf(await put(sv.attributes['hosted-state-upload-url'], big));
    expect(err.detail).toBe(`The state is too large to process: it holds more than ${maxInstances} resource instances`);
    expect(await stored(sv.id)).toEqual({ status: 'pending', files: 0 });
  });

  it('bounds the JSON state and the inline state of a create too (422 at their attribute)', async () => {
    const { wsId } = await pending();
    const deep = Buffer.from(`{"values":${nested(maxDepth + 1)}}`);
    const sv = await createPending(wsId, state('"resources":[]'));
    const err = await errorOf(await put(sv.attributes['hosted-json-state-upload-url'], deep));
    expect(err.detail).toBe(`The JSON state is too large to process: it nests deeper than ${maxDepth} levels`);
    const inline = state(`"outputs":{"o":{"value":${nested(maxDepth + 1)}}}`);
    const created = await api.post(`${P}/workspaces/${wsId}/state-versions`, {
      data: { type: 'state-versions', attributes: { serial: 2, md5: md5(inline), state: inline.toString('base64') } },
    });
    expect(created.status).toBe(422);
    expect(created.body.errors[0]).toMatchObject({
      detail: `The state is too large to process: it nests deeper than ${maxDepth} levels`,
      source: { pointer: '/data/attributes/state' },
    });
    const list = await api.get(`${P}/workspaces/${wsId}/state-versions`);
    expect(list.body.data).toHaveLength(1);
  });

  it('a big state parsed on the worker thread shows the same outputs and resources as a small one', async () => {
    const { wsId } = await pending();
    const filler = JSON.stringify({ blob: 'x'.repeat(600_000) });
    const big = state(
      `"outputs":{"name":{"value":"web","type":"string"},"list":{"value":[1,2],"type":["list","number"]},` +
        `"secret":{"value":"s","type":"string","sensitive":true}},` +
        `"resources":[{"mode":"managed","type":"null_resource","name":"n","provider":"provider[\\"registry.terraform.io/hashicorp/null\\"]",` +
        `"instances":[{"index_key":0,"attributes":${filler}},{"index_key":1,"attributes":{}}]},` +
        `{"mode":"data","type":"d","name":"x","provider":"p","instances":[{"attributes":{}}]}]`,
    );
    expect(big.length).toBeGreaterThan(512 * 1024);
    const sv = await createPending(wsId, big);
    expect((await put(sv.attributes['hosted-state-upload-url'], big)).status).toBe(200);
    const read = (await api.get(`${P}/state-versions/${sv.id}?include=outputs`)).body;
    expect(read.data.attributes).toMatchObject({
      status: 'finalized',
      size: big.length,
      'resource-count': 2,
      'terraform-version': '1.9.0',
      'state-version': 4,
    });
    expect(
      read.included.map((o: any) => [o.attributes.name, o.attributes.type, o.attributes.value, o.attributes.sensitive]),
    ).toEqual([
      ['name', 'string', 'web', false],
      ['list', 'array', [1, 2], false],
      ['secret', 'string', 's', true],
    ]);
    const download = await api.app.fetch(new Request(read.data.attributes['hosted-state-download-url']));
    expect(Buffer.from(await download.arrayBuffer()).equals(big)).toBe(true);
  });

  it('a state whose md5 does not match is refused before it is parsed (422)', async () => {
    const { wsId } = await pending();
    const sv = await createPending(wsId, state('"resources":[]'));
    const other = Buffer.concat([state('"resources":[]'), Buffer.alloc(400_000, 0x20)]);
    const err = await errorOf(await put(sv.attributes['hosted-state-upload-url'], other));
    expect(err.detail).toBe('State does not match its md5 checksum');
  });
});
