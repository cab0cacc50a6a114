import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { storeSnapshot } from '../../helpers/workspaces.js';

/** The behaviours docs/api.md "Robustness" documents for bodies that are not plain JSON. */
describe('hostile request bodies', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await TestApi.create();
    await api.createOrg('acme');
  });
  afterAll(() => api.close());

  const post = (body: string | Uint8Array) =>
    api.app.fetch(
      new Request('http://berth.test/api/v2/organizations/acme/workspaces', {
        method: 'POST',
        headers: { Authorization: `Bearer ${api.adminToken}`, 'Content-Type': 'application/vnd.api+json' },
        body,
      }),
    );

  it('bytes that are not UTF-8 in a name: 422 at the name, nothing stored', async () => {
    const before = await storeSnapshot(api);
    const bytes = Buffer.concat([
      Buffer.from('{"data":{"type":"workspaces","attributes":{"name":"bad'),
      Buffer.from([0xff, 0xfe, 0xc3]),
      Buffer.from('"}}}'),
    ]);
    const res = await post(bytes);
    expect(res.status).toBe(422);
    expect(((await res.json()) as any).errors[0]).toMatchObject({
      status: '422',
      source: { pointer: '/data/attributes/name' },
    });
    expect(await storeSnapshot(api)).toEqual(before);
  });

  it('duplicate keys: the last one wins', async () => {
    const res = await post('{"data":{"type":"workspaces","attributes":{"name":"first","name":"second"}}}');
    expect(res.status).toBe(201);
    expect(((await res.json()) as any).data.attributes.name).toBe('second');
  });

  it('100,000 levels of nesting: 422, not a crash', async () => {
    const res = await post(`{"data":${'['.repeat(100_000)}${']'.repeat(100_000)}}`);
    expect(res.status).toBe(422);
    expect(((await res.json()) as any).errors[0]).toMatchObject({ status: '422', source: { pointer: '/data' } });
  });
});
