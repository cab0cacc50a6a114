import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOO_MANY_BINDINGS_DETAIL } from '../../../src/domain/workspaces/tags.js';
import { TestApi } from '../../helpers/api.js';
import { ISO_MS, TB_ID, createProject, expectRejected, tagData, type Tag } from '../../helpers/projects.js';

const invalidAttr = (pointer: string, detail: string) => ({ status: 422, title: 'invalid attribute', detail, pointer });
const tags = (n: number, prefix = 'k'): Tag[] =>
  Array.from({ length: n }, (_, i) => ({ key: `${prefix}${i}`, value: `v${i}` }));
const pairs = (body: any) => body.data.map((b: any) => [b.attributes.key, b.attributes.value]);

describe('project tag bindings', () => {
  let api: TestApi;
  let counter = 0;
  const fresh = async (initial: Tag[] = []) =>
    (await createProject(api, 'acme', { name: `tagged ${++counter}` }, initial)).id as string;
  const path = (id: string, rel = false) => `/api/v2/projects/${id}/${rel ? 'relationships/' : ''}tag-bindings`;
  const body = (t: Tag[]) => ({ data: tagData(t) });

  beforeAll(async () => {
    api = await TestApi.create();
    expect((await api.createOrg('acme')).status).toBe(201);
  });
  afterAll(() => api.close());

  describe('GET tag-bindings and effective-tag-bindings', () => {
    let id: string;
    beforeAll(async () => {
      id = await fresh([
        { key: 'env', value: 'prod' },
        { key: 'cost.center', value: 'a@b+c=d:e-f_g' },
        { key: 'solo' },
      ]);
    });

    it('lists the direct bindings, not paginated, in the order added', async () => {
      const res = await api.get(path(id));
      expect(res.status).toBe(200);
      expect(res.headers.get('Content-Type')).toBe('application/vnd.api+json');
      expect(res.body.meta).toBeUndefined();
      expect(res.body.data).toEqual([
        {
          id: expect.stringMatching(TB_ID),
          type: 'tag-bindings',
          attributes: { key: 'env', value: 'prod', 'created-at': expect.stringMatching(ISO_MS) },
        },
        {
          id: expect.stringMatching(TB_ID),
          type: 'tag-bindings',
          attributes: { key: 'cost.center', value: 'a@b+c=d:e-f_g', 'created-at': expect.stringMatching(ISO_MS) },
        },
        {
          id: expect.stringMatching(TB_ID),
          type: 'tag-bindings',
          attributes: { key: 'solo', value: '', 'created-at': expect.stringMatching(ISO_MS) },
        },
      ]);
    });

    it('lists the same set as effective bindings, without links on direct ones', async () => {
      const res = await api.get(`/api/v2/projects/${id}/effective-tag-bindings`);
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual([
        {
          id: expect.stringMatching(/^[0-9a-f]{16}$/),
          type: 'effective-tag-bindings',
          attributes: { key: 'env', value: 'prod' },
        },
        {
          id: expect.stringMatching(/^[0-9a-f]{16}$/),
          type: 'effective-tag-bindings',
          attributes: { key: 'cost.center', value: 'a@b+c=d:e-f_g' },
        },
        {
          id: expect.stringMatching(/^[0-9a-f]{16}$/),
          type: 'effective-tag-bindings',
          attributes: { key: 'solo', value: '' },
        },
      ]);
      const again = await api.get(`/api/v2/projects/${id}/effective-tag-bindings`);
      expect(again.body.data.map((b: any) => b.id)).toEqual(res.body.data.map((b: any) => b.id));
    });

    it('lists the same through GET relationships/tag-bindings', async () => {
      const res = await api.get(path(id, true));
      expect(res.status).toBe(200);
      expect(res.body.data).toEqual((await api.get(path(id))).body.data);
    });

    it('answers 404 for an unknown project on every tag path', async () => {
      for (const p of ['tag-bindings', 'effective-tag-bindings', 'relationships/tag-bindings']) {
        const res = await api.get(`/api/v2/projects/prj-0000000000000000/${p}`);
        expect(res.status).toBe(404);
        expect(res.body.errors).toEqual([
          { status: '404', title: 'not found', detail: 'project prj-0000000000000000 not found' },
        ]);
      }
    });
  });

  describe('PATCH tag-bindings (additive)', () => {
    it('adds new keys and updates values by key, never removes, and answers 200 with the bindings it named', async () => {
      const id = await fresh([
        { key: 'env', value: 'dev' },
        { key: 'team', value: 'web' },
      ]);
      const before = (await api.get(path(id))).body.data;
      const res = await api.patch(
        path(id),
        body([
          { key: 'env', value: 'prod' },
          { key: 'tier', value: '1' },
        ]),
      );
      expect(res.status).toBe(200);
      expect(pairs(res.body)).toEqual([
        ['env', 'prod'],
        ['tier', '1'],
      ]);
      expect(res.body.data[0].id).toBe(before[0].id);
      expect(res.body.data[0].attributes['created-at']).toBe(before[0].attributes['created-at']);
      const all = (await api.get(path(id))).body;
      expect(pairs(all)).toEqual([
        ['env', 'prod'],
        ['team', 'web'],
        ['tier', '1'],
      ]);
      expect(all.data.filter((b: any) => b.attributes.key !== 'team')).toEqual(res.body.data);
    });

    it('accepts an empty data array as a no-op', async () => {
      const id = await fresh([{ key: 'a', value: '1' }]);
      const res = await api.patch(path(id), { data: [] });
      expect(res.status).toBe(200);
      expect(pairs(res.body)).toEqual([]);
      expect(pairs((await api.get(path(id))).body)).toEqual([['a', '1']]);
    });

    it('accepts a merge that ends at exactly 10 bindings', async () => {
      const id = await fresh(tags(6));
      const res = await api.patch(path(id), body([...tags(2), ...tags(4, 'n')]));
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(6);
      expect((await api.get(path(id))).body.data).toHaveLength(10);
    });

    it('rejects a merge that would reach 11 bindings and changes nothing', async () => {
      const id = await fresh(tags(10));
      await expectRejected(
        api,
        () =>
          api.patch(
            path(id),
            body([
              { key: 'k0', value: 'changed' },
              { key: 'eleventh', value: 'x' },
            ]),
          ),
        invalidAttr('/data', TOO_MANY_BINDINGS_DETAIL),
      );
    });

    it('reads extra members of go-tfe bodies and ignores them', async () => {
      const id = await fresh();
      const res = await api.patch(path(id), {
        data: [
          {
            type: 'tag-bindings',
            id: '',
            attributes: { key: 'env', value: 'x', 'created-at': null },
            relationships: {},
          },
        ],
      });
      expect(res.status).toBe(200);
      expect(pairs(res.body)).toEqual([['env', 'x']]);
    });
  });

  describe('relationships/tag-bindings', () => {
    it('POST adds (204, no body) and keeps the others', async () => {
      const id = await fresh([{ key: 'env', value: 'dev' }]);
      const res = await api.post(
        path(id, true),
        body([
          { key: 'env', value: 'prod' },
          { key: 'team', value: 'web' },
        ]),
      );
      expect(res.status).toBe(204);
      expect(res.text).toBe('');
      expect(pairs((await api.get(path(id))).body)).toEqual([
        ['env', 'prod'],
        ['team', 'web'],
      ]);
    });

    it('POST rejects a result of 11 bindings and changes nothing', async () => {
      const id = await fresh(tags(9));
      await expectRejected(
        api,
        () => api.post(path(id, true), body(tags(2, 'n'))),
        invalidAttr('/data', TOO_MANY_BINDINGS_DETAIL),
      );
    });

    it('PATCH replaces the whole set (204)', async () => {
      const id = await fresh([
        { key: 'env', value: 'dev' },
        { key: 'old', value: 'x' },
      ]);
      const res = await api.patch(
        path(id, true),
        body([
          { key: 'env', value: 'prod' },
          { key: 'new', value: 'y' },
        ]),
      );
      expect(res.status).toBe(204);
      expect(pairs((await api.get(path(id))).body)).toEqual([
        ['env', 'prod'],
        ['new', 'y'],
      ]);
    });

    it('PATCH with data: [] removes every binding', async () => {
      const id = await fresh(tags(3));
      expect((await api.patch(path(id, true), { data: [] })).status).toBe(204);
      expect((await api.get(path(id))).body.data).toEqual([]);
    });

    it('PATCH accepts 10 bindings and rejects 11, changing nothing', async () => {
      const id = await fresh([{ key: 'keep', value: 'me' }]);
      expect((await api.patch(path(id, true), body(tags(10)))).status).toBe(204);
      await expectRejected(
        api,
        () => api.patch(path(id, true), body(tags(11, 'z'))),
        invalidAttr('/data', TOO_MANY_BINDINGS_DETAIL),
      );
      expect((await api.get(path(id))).body.data).toHaveLength(10);
    });
  });

  describe('validation of keys and values (each path)', () => {
    let id: string;
    beforeAll(async () => {
      id = await fresh([{ key: 'existing', value: 'v' }]);
    });
    const senders = {
      'PATCH tag-bindings': (b: unknown) => api.patch(path(id), b),
      'POST relationships/tag-bindings': (b: unknown) => api.post(path(id, true), b),
      'PATCH relationships/tag-bindings': (b: unknown) => api.patch(path(id, true), b),
    };
    const cases: [string, unknown, string, string][] = [
      [
        'the reserved prefix hc:',
        body([{ key: 'hc:thing', value: 'x' }]),
        '/data/0/attributes/key',
        'Key is invalid: the prefixes hc: and hcp: are reserved',
      ],
      [
        'the reserved prefix hcp:',
        body([
          { key: 'ok', value: 'x' },
          { key: 'hcp:thing', value: 'x' },
        ]),
        '/data/1/attributes/key',
        'Key is invalid: the prefixes hc: and hcp: are reserved',
      ],
      [
        'a key of 129 characters',
        body([{ key: 'k'.repeat(129), value: 'x' }]),
        '/data/0/attributes/key',
        'Key is too long (maximum is 128 characters)',
      ],
      [
        'a value of 257 characters',
        body([{ key: 'k', value: 'v'.repeat(257) }]),
        '/data/0/attributes/value',
        'Value is too long (maximum is 256 characters)',
      ],
      [
        'a key with a space',
        body([{ key: 'a b', value: 'x' }]),
        '/data/0/attributes/key',
        'Key is invalid: only letters, numbers and _ . = + - @ : are allowed',
      ],
      [
        'a value with a slash',
        body([{ key: 'a', value: 'x/y' }]),
        '/data/0/attributes/value',
        'Value is invalid: only letters, numbers and _ . = + - @ : are allowed',
      ],
      ['an empty key', body([{ key: '', value: 'x' }]), '/data/0/attributes/key', "Key can't be blank"],
      [
        'a missing key',
        { data: [{ type: 'tag-bindings', attributes: { value: 'x' } }] },
        '/data/0/attributes/key',
        "Key can't be blank",
      ],
      [
        'a duplicate key in one request',
        body([
          { key: 'd', value: '1' },
          { key: 'd', value: '2' },
        ]),
        '/data/1/attributes/key',
        'Key has already been taken',
      ],
      [
        'a wrong item type',
        { data: [{ type: 'tags', attributes: { key: 'a', value: 'b' } }] },
        '/data/0/type',
        'Type must be "tag-bindings"',
      ],
      [
        'data that is not an array',
        { data: { type: 'tag-bindings', attributes: { key: 'a' } } },
        '/data',
        'Tag bindings must be an array',
      ],
      ['a body without data', { tags: [] }, '/data', 'request body must contain a data member'],
    ];
    for (const [via, send] of Object.entries(senders)) {
      it.each(cases)(`${via} rejects %s with 422 and changes nothing`, async (_label, b, pointer, detail) => {
        await expectRejected(api, () => send(b), invalidAttr(pointer, detail));
      });
    }

    it('accepts a key of 128 and a value of 256 characters, and an empty value', async () => {
      const res = await api.patch(
        path(id),
        body([
          { key: 'k'.repeat(128), value: 'v'.repeat(256) },
          { key: 'empty', value: '' },
        ]),
      );
      expect(res.status).toBe(200);
      expect(res.body.data).toHaveLength(2);
      expect((await api.get(path(id))).body.data).toHaveLength(3);
    });

    it('rejects malformed JSON with 400 and changes nothing', async () => {
      const before = (await api.get(path(id))).body.data;
      const res = await api.request('PATCH', path(id), { raw: '[' });
      expect(res.status).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ status: '400', title: 'bad request' });
      expect((await api.get(path(id))).body.data).toEqual(before);
    });
  });
});
