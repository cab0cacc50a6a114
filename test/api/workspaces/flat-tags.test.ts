import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { createWorkspace, teamUser } from '../../helpers/workspaces.js';
import { goTfeTagsById, goTfeTagsByName } from '../../fixtures/go-tfe.js';

describe('flat string tags', () => {
  let api: TestApi;
  let ws: string;
  let ws2: string;
  const path = (id = ws) => `/api/v2/workspaces/${id}/relationships/tags`;
  const names = async (id = ws) => (await api.get(path(id))).body.data.map((t: any) => t.attributes.name);
  const orgTags = async (query = '') => (await api.get(`/api/v2/organizations/acme/tags${query}`)).body;
  const snapshot = async () => ({
    tags: await api.store.db.selectFrom('tags').selectAll().orderBy('seq').execute(),
    assigned: await api.store.db.selectFrom('workspace_tags').selectAll().orderBy('seq').execute(),
  });

  beforeAll(async () => {
    api = await TestApi.create();
    await api.createOrg('acme');
    await api.createOrg('other');
    ws = (await createWorkspace(api, 'acme', { name: 'app' })).body.data.id;
    ws2 = (await createWorkspace(api, 'acme', { name: 'app2' })).body.data.id;
  });
  afterAll(() => api.close());

  it('POST by name (go-tfe shape) creates organization tags, lower-cased; 204 without a body', async () => {
    const res = await api.post(path(), goTfeTagsByName('Prod', 'team:web', 'us_east-1'));
    expect(res.status, res.text).toBe(204);
    expect(res.text).toBe('');
    expect(await names()).toEqual(['prod', 'team:web', 'us_east-1']);
    const list = (await api.get(path())).body;
    expect(list.data[0]).toMatchObject({
      type: 'tags',
      attributes: { name: 'prod', 'instance-count': 1 },
      relationships: { organization: { data: { id: 'acme', type: 'organizations' } } },
    });
    expect(list.data[0].id).toMatch(/^tag-[A-Za-z0-9]{16}$/);
    expect(list.meta.pagination).toMatchObject({ 'total-count': 3, 'page-size': 20 });
  });

  it('the workspace tag-names attribute and search[tags] / search[exclude-tags] read the same data', async () => {
    expect((await api.get(`/api/v2/workspaces/${ws}`)).body.data.attributes['tag-names']).toEqual([
      'prod',
      'team:web',
      'us_east-1',
    ]);
    const tagged = (await api.get('/api/v2/organizations/acme/workspaces?search[tags]=PROD')).body.data.map(
      (w: any) => w.id,
    );
    expect(tagged).toEqual([ws]);
    const excluded = (await api.get('/api/v2/organizations/acme/workspaces?search[exclude-tags]=prod')).body.data.map(
      (w: any) => w.id,
    );
    expect(excluded).toEqual([ws2]);
  });

  it('POST by id reuses an organization tag; tags already there are ignored', async () => {
    const prod = (await api.get(path())).body.data[0].id;
    expect((await api.post(path(ws2), goTfeTagsById(prod))).status).toBe(204);
    expect(
      (
        await api.post(path(ws2), {
          data: [
            { type: 'tags', attributes: { name: 'prod' } },
            { type: 'tags', attributes: { name: 'PROD' } },
          ],
        })
      ).status,
    ).toBe(204);
    expect(await names(ws2)).toEqual(['prod']);
    const org = await orgTags();
    expect(org.data.map((t: any) => [t.attributes.name, t.attributes['instance-count']])).toEqual([
      ['prod', 2],
      ['team:web', 1],
      ['us_east-1', 1],
    ]);
  });

  it('organization tags: paginated, q filters by substring', async () => {
    expect((await orgTags('?q=EAST')).data.map((t: any) => t.attributes.name)).toEqual(['us_east-1']);
    // go-tfe's filter[exclude][taggable][id]: the tags that workspace does not carry.
    expect(
      (await orgTags(`?filter%5Bexclude%5D%5Btaggable%5D%5Bid%5D=${ws2}`)).data.map((t: any) => t.attributes.name),
    ).toEqual(['team:web', 'us_east-1']);
    const page = await orgTags('?page[size]=2&page[number]=2');
    expect(page.data.map((t: any) => t.attributes.name)).toEqual(['us_east-1']);
    expect(page.meta.pagination).toMatchObject({ 'total-count': 3, 'total-pages': 2 });
    expect((await api.get('/api/v2/organizations/other/tags')).body.data).toEqual([]);
  });

  it('workspace tag list filters by name and pages', async () => {
    expect((await api.get(`${path()}?name=team`)).body.data.map((t: any) => t.attributes.name)).toEqual(['team:web']);
    expect((await api.get(`${path()}?page[size]=1`)).body.meta.pagination['total-pages']).toBe(3);
  });

  it('invalid names and malformed items are 422 with nothing changed', async () => {
    const before = await snapshot();
    const cases: [unknown, string][] = [
      [goTfeTagsByName('ok', 'has space'), '/data/1/attributes/name'],
      [goTfeTagsByName('bad!'), '/data/0/attributes/name'],
      [goTfeTagsByName(''), '/data/0/attributes/name'],
      [goTfeTagsByName('a'.repeat(256)), '/data/0/attributes/name'],
      [{ data: [{ type: 'tag-bindings', attributes: { name: 'x' } }] }, '/data/0/type'],
      [{ data: [{ type: 'tags' }] }, '/data/0/attributes/name'],
      [{ data: { type: 'tags', attributes: { name: 'x' } } }, '/data'],
      [goTfeTagsById('tag-AAAAAAAAAAAAAAAA'), '/data/0/id'],
    ];
    for (const [body, pointer] of cases) {
      const res = await api.post(path(), body);
      expect(res.status, res.text).toBe(422);
      expect(res.body.errors.map((e: any) => e.source.pointer)).toContain(pointer);
    }
    expect((await api.post(path(), goTfeTagsByName('a'.repeat(255)))).status).toBe(204);
    await api.delete(path(), { body: goTfeTagsByName('a'.repeat(255)) });
    const after = await snapshot();
    expect(after.assigned).toEqual(before.assigned);
  });

  it('a tag id of another organization is a 422', async () => {
    const theirs = (await createWorkspace(api, 'other', { name: 'x' })).body.data.id;
    await api.post(path(theirs), goTfeTagsByName('prod'));
    const foreignTag = (await api.get(path(theirs))).body.data[0].id;
    const res = await api.post(path(), goTfeTagsById(foreignTag));
    expect(res.status).toBe(422);
    expect((await api.delete(path(), { body: goTfeTagsById(foreignTag) })).status).toBe(422);
  });

  it('DELETE: an unknown id is 422 with nothing changed; an unknown name is ignored; by name and by id', async () => {
    const before = await snapshot();
    const bad = await api.delete(path(), {
      body: {
        data: [
          { type: 'tags', attributes: { name: 'prod' } },
          { type: 'tags', id: 'tag-AAAAAAAAAAAAAAAA' },
        ],
      },
    });
    expect(bad.status).toBe(422);
    expect(await snapshot()).toEqual(before);
    expect((await api.delete(path(), { body: goTfeTagsByName('nothing-like-this', 'PROD') })).status).toBe(204);
    expect(await names()).toEqual(['team:web', 'us_east-1']);
    const teamWeb = (await api.get(path())).body.data[0].id;
    expect((await api.delete(path(), { body: goTfeTagsById(teamWeb) })).status).toBe(204);
    expect(await names()).toEqual(['us_east-1']);
  });

  it('a tag that no workspace carries leaves the organization list (also when its workspace is deleted)', async () => {
    expect((await orgTags()).data.map((t: any) => t.attributes.name)).toEqual(['prod', 'us_east-1']);
    expect((await api.delete(`/api/v2/workspaces/${ws}`)).status).toBe(204);
    expect((await orgTags()).data.map((t: any) => t.attributes.name)).toEqual(['prod']);
    // Adding it back by name brings it back.
    await api.post(path(ws2), goTfeTagsByName('us_east-1'));
    expect((await orgTags()).data.map((t: any) => [t.attributes.name, t.attributes['instance-count']])).toEqual([
      ['prod', 1],
      ['us_east-1', 1],
    ]);
  });

  it('inline relationships.tags on workspace create (go-tfe shallow nodes) and update (adds)', async () => {
    const created = await createWorkspace(
      api,
      'acme',
      { name: 'inline' },
      { tags: goTfeTagsByName('Inline-A', 'prod') },
    );
    expect(created.body.data.attributes['tag-names']).toEqual(['inline-a', 'prod']);
    const id = created.body.data.id;
    const updated = await api.patch(`/api/v2/workspaces/${id}`, {
      data: { type: 'workspaces', attributes: {}, relationships: { tags: goTfeTagsByName('later') } },
    });
    expect(updated.status, updated.text).toBe(200);
    expect(updated.body.data.attributes['tag-names']).toEqual(['inline-a', 'prod', 'later']);
    const before = await snapshot();
    const bad = await api.post('/api/v2/organizations/acme/workspaces', {
      data: {
        type: 'workspaces',
        attributes: { name: 'bad-inline' },
        relationships: { tags: goTfeTagsByName('no spaces') },
      },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors[0].source.pointer).toBe('/data/relationships/tags/data/0/attributes/name');
    const unknownId = await api.patch(`/api/v2/workspaces/${id}`, {
      data: {
        type: 'workspaces',
        attributes: { description: 'x' },
        relationships: { tags: goTfeTagsById('tag-AAAAAAAAAAAAAAAA') },
      },
    });
    expect(unknownId.status).toBe(422);
    expect(unknownId.body.errors[0].source.pointer).toBe('/data/relationships/tags/data/0/id');
    expect(await snapshot()).toEqual(before);
    expect((await api.get(`/api/v2/workspaces/${id}`)).body.data.attributes.description).toBeNull();
    expect((await api.delete(`/api/v2/workspaces/${id}`)).status).toBe(204);
  });

  it('readers list but may not change tags (404); outsiders 404', async () => {
    const reader = await teamUser(api, 'acme', 'reader', { read_workspaces: 1 });
    const outsider = (await api.userToken('outsider')).token;
    expect((await api.get(path(ws2), { token: reader })).status).toBe(200);
    expect((await api.get('/api/v2/organizations/acme/tags', { token: reader })).status).toBe(200);
    expect((await api.post(path(ws2), goTfeTagsByName('x'), { token: reader })).status).toBe(404);
    expect((await api.delete(path(ws2), { token: reader, body: goTfeTagsByName('prod') })).status).toBe(404);
    expect((await api.post(path(ws2), goTfeTagsByName('x'), { token: outsider })).status).toBe(404);
    expect((await api.get('/api/v2/organizations/acme/tags', { token: outsider })).status).toBe(404);
  });
});
