import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { createWorkspace } from '../../helpers/workspaces.js';

const tag = (name: string) => ({ type: 'tags', attributes: { name } });
const binding = (key: string, value: string) => ({ type: 'tag-bindings', attributes: { key, value } });

/**
 * Tag filters combine the workspaces' integer keys that every tag and binding row carries
 * (migration 012). Each way of writing such a row must fill it: a row without it would drop out
 * of every filter.
 */
describe('tag filters find tags and bindings however they were written', () => {
  let api: TestApi;
  const ids: Record<string, string> = {};
  const names = async (query: string) =>
    (await api.get(`/api/v2/organizations/acme/workspaces?${query}`)).body.data
      .map((w: any) => w.attributes.name)
      .sort();

  beforeAll(async () => {
    api = await TestApi.create();
    expect((await api.createOrg('acme')).status).toBe(201);
    // Inline at create: flat tags and bindings.
    ids.inline = (
      await createWorkspace(
        api,
        'acme',
        { name: 'inline' },
        { tags: { data: [tag('t-inline')] }, 'tag-bindings': { data: [binding('k', 'create')] } },
      )
    ).body.data.id;
    ids.added = (await createWorkspace(api, 'acme', { name: 'added' })).body.data.id;
    ids.patched = (await createWorkspace(api, 'acme', { name: 'patched' })).body.data.id;
    ids.related = (await createWorkspace(api, 'acme', { name: 'related' })).body.data.id;
    const ok = (r: { status: number; text: string }) => expect(r.status, r.text).toBeLessThan(300);
    // The flat-tags relationship, and the documented tag-bindings path.
    ok(
      await api.post(`/api/v2/workspaces/${ids.added}/relationships/tags`, { data: [tag('t-added'), tag('t-inline')] }),
    );
    ok(await api.patch(`/api/v2/workspaces/${ids.added}/tag-bindings`, { data: [binding('k', 'added')] }));
    // A workspace update with its bindings.
    ok(
      await api.patch(`/api/v2/workspaces/${ids.patched}`, {
        data: {
          type: 'workspaces',
          attributes: {},
          relationships: { 'tag-bindings': { data: [binding('k', 'patched')] } },
        },
      }),
    );
    // The relationship forms: POST adds, PATCH replaces.
    ok(
      await api.post(`/api/v2/workspaces/${ids.related}/relationships/tag-bindings`, {
        data: [binding('j', 'posted')],
      }),
    );
    ok(
      await api.patch(`/api/v2/workspaces/${ids.related}/relationships/tag-bindings`, {
        data: [binding('k', 'replaced')],
      }),
    );
  });
  afterAll(() => api.close());

  it('stores every row with its workspace key', async () => {
    const tags = await api.store.db
      .selectFrom('workspace_tags')
      .innerJoin('workspaces', 'workspaces.id', 'workspace_tags.workspace_id')
      .select(['workspace_tags.workspace_seq', 'workspaces.seq'])
      .execute();
    const bindings = await api.store.db
      .selectFrom('workspace_tag_bindings')
      .innerJoin('workspaces', 'workspaces.id', 'workspace_tag_bindings.workspace_id')
      .select(['workspace_tag_bindings.workspace_seq', 'workspaces.seq'])
      .execute();
    expect(tags).toHaveLength(3);
    expect(bindings).toHaveLength(4);
    for (const r of [...tags, ...bindings]) expect(r.workspace_seq).toBe(r.seq);
  });

  it('search[tags] and search[exclude-tags] find the flat tags of both paths', async () => {
    expect(await names('search%5Btags%5D=t-inline')).toEqual(['added', 'inline']);
    expect(await names('search%5Btags%5D=t-added')).toEqual(['added']);
    expect(await names('search%5Btags%5D=t-added,t-inline')).toEqual(['added']);
    expect(await names('search%5Bexclude-tags%5D=t-inline,t-added')).toEqual(['patched', 'related']);
    expect(await names('search%5Bexclude-tags%5D=T-Added')).toEqual(['inline', 'patched', 'related']);
  });

  it('counts the workspaces without excluded tags once each, alone and with other conditions', async () => {
    const total = async (query: string) =>
      (await api.get(`/api/v2/organizations/acme/workspaces?${query}`)).body.meta.pagination['total-count'];
    // "added" carries both excluded tags: it is subtracted once.
    expect(await total('search%5Bexclude-tags%5D=t-inline,t-added')).toBe(2);
    expect(await total('search%5Bexclude-tags%5D=t-inline')).toBe(2);
    expect(await total('search%5Bexclude-tags%5D=nothing')).toBe(4);
    expect(await total('search%5Bexclude-tags%5D=t-added&search%5Bname%5D=in')).toBe(1);
    expect(await total('search%5Bexclude-tags%5D=t-added&page%5Bsize%5D=1')).toBe(3);
  });

  it('search[tags] counts the whole intersection on any page, also past the last', async () => {
    const page = async (query: string) => (await api.get(`/api/v2/organizations/acme/workspaces?${query}`)).body;
    const first = await page('search%5Btags%5D=t-inline&page%5Bsize%5D=1');
    expect(first.data).toHaveLength(1);
    expect(first.meta.pagination['total-count']).toBe(2);
    const second = await page('search%5Btags%5D=t-inline&page%5Bsize%5D=1&page%5Bnumber%5D=2');
    expect(second.data).toHaveLength(1);
    expect(second.meta.pagination['total-count']).toBe(2);
    const past = await page('search%5Btags%5D=t-inline&page%5Bsize%5D=1&page%5Bnumber%5D=5');
    expect(past.data).toEqual([]);
    expect(past.meta.pagination['total-count']).toBe(2);
    expect((await page('search%5Btags%5D=t-added,nothing')).meta.pagination['total-count']).toBe(0);
    // Repeated and differently cased names are one tag.
    expect((await page('search%5Btags%5D=T-Inline,t-inline,t-added')).data.map((w: any) => w.attributes.name)).toEqual([
      'added',
    ]);
    // Sorted: the page query carries the count.
    for (const sort of ['name', '-name']) {
      const sorted = await page(`search%5Btags%5D=t-inline&sort=${sort}&page%5Bsize%5D=1&page%5Bnumber%5D=2`);
      expect(sorted.data.map((w: any) => w.attributes.name)).toEqual([sort === 'name' ? 'inline' : 'added']);
      expect(sorted.meta.pagination['total-count']).toBe(2);
      const beyond = await page(`search%5Btags%5D=t-inline&sort=${sort}&page%5Bsize%5D=1&page%5Bnumber%5D=3`);
      expect(beyond.data).toEqual([]);
      expect(beyond.meta.pagination['total-count']).toBe(2);
    }
    // The default order is creation order: "inline" was created first.
    expect((await page('search%5Btags%5D=t-inline')).data.map((w: any) => w.attributes.name)).toEqual([
      'inline',
      'added',
    ]);
    expect((await page('search%5Btags%5D=t-inline&search%5Bname%5D=add')).meta.pagination['total-count']).toBe(1);
  });

  it('filter[tagged] finds the bindings of every path', async () => {
    const tagged = (value: string) =>
      names(`filter%5Btagged%5D%5B0%5D%5Bkey%5D=k&filter%5Btagged%5D%5B0%5D%5Bvalue%5D=${value}`);
    expect(await tagged('create')).toEqual(['inline']);
    expect(await tagged('added')).toEqual(['added']);
    expect(await tagged('patched')).toEqual(['patched']);
    expect(await tagged('replaced')).toEqual(['related']);
    expect(await names('filter%5Btagged%5D%5B0%5D%5Bkey%5D=j')).toEqual([]);
  });
});

/**
 * Own binding rows carry their workspace's project (migration 013), and a list filtered by
 * `filter[tagged]` alone is counted from them: the count must follow moves by both paths.
 */
describe('filter[tagged] counts follow the projects of the workspaces', () => {
  let api: TestApi;
  let alpha: string;
  let beta: string;
  const ws: Record<string, string> = {};
  const list = async (query: string) =>
    (await api.get(`/api/v2/organizations/acme/workspaces?page%5Bsize%5D=100&${query}`)).body;
  const tagged = (key: string, value = '') =>
    `filter%5Btagged%5D%5B0%5D%5Bkey%5D=${key}&filter%5Btagged%5D%5B0%5D%5Bvalue%5D=${value}`;
  /** The matching names, and the total the list reports (from the separate count). */
  const matches = async (key: string, value = '') => {
    const doc = await list(tagged(key, value));
    return { names: doc.data.map((w: any) => w.attributes.name).sort(), total: doc.meta.pagination['total-count'] };
  };
  const stored = async () =>
    api.store.db
      .selectFrom('workspace_tag_bindings')
      .innerJoin('workspaces', 'workspaces.id', 'workspace_tag_bindings.workspace_id')
      .select([
        'workspaces.name',
        'workspace_tag_bindings.project_id as bindingProject',
        'workspaces.project_id as workspaceProject',
      ])
      .execute();

  beforeAll(async () => {
    api = await TestApi.create();
    expect((await api.createOrg('acme')).status).toBe(201);
    expect((await api.createOrg('other')).status).toBe(201);
    const project = async (org: string, name: string, pairs: [string, string][]) => {
      const res = await api.post(`/api/v2/organizations/${org}/projects`, {
        data: { type: 'projects', attributes: { name } },
      });
      expect(res.status, res.text).toBe(201);
      if (pairs.length > 0)
        expect(
          (
            await api.patch(`/api/v2/projects/${res.body.data.id}/tag-bindings`, {
              data: pairs.map(([k, v]) => binding(k, v)),
            })
          ).status,
        ).toBeLessThan(300);
      return res.body.data.id as string;
    };
    alpha = await project('acme', 'alpha', [['env', 'prod']]);
    beta = await project('acme', 'beta', [['env', 'dev']]);
    const otherProject = await project('other', 'elsewhere', [['env', 'prod']]);
    const inProject = (id: string) => ({ project: { data: { type: 'projects', id } } });
    // a1 inherits env=prod; a2 overrides it with env=dev; b1 inherits dev and binds team; b2 binds env=prod itself.
    ws.a1 = (await createWorkspace(api, 'acme', { name: 'a1' }, inProject(alpha))).body.data.id;
    ws.a2 = (
      await createWorkspace(
        api,
        'acme',
        { name: 'a2' },
        { ...inProject(alpha), 'tag-bindings': { data: [binding('env', 'dev')] } },
      )
    ).body.data.id;
    ws.b1 = (
      await createWorkspace(
        api,
        'acme',
        { name: 'b1' },
        { ...inProject(beta), 'tag-bindings': { data: [binding('team', 'core')] } },
      )
    ).body.data.id;
    ws.b2 = (
      await createWorkspace(
        api,
        'acme',
        { name: 'b2' },
        { ...inProject(beta), 'tag-bindings': { data: [binding('env', 'prod')] } },
      )
    ).body.data.id;
    // Another organization's matches never count.
    await createWorkspace(
      api,
      'other',
      { name: 'x1' },
      { ...inProject(otherProject), 'tag-bindings': { data: [binding('env', 'prod')] } },
    );
    await createWorkspace(api, 'other', { name: 'x2' }, inProject(otherProject));
  });
  afterAll(() => api.close());

  it('stores each own binding with its workspace project', async () => {
    const rows = await stored();
    expect(rows).toHaveLength(4);
    for (const r of rows) expect(r.bindingProject, r.name).toBe(r.workspaceProject);
  });

  it('counts own and inherited matches once each, the own value winning', async () => {
    expect(await matches('env', 'prod')).toEqual({ names: ['a1', 'b2'], total: 2 });
    expect(await matches('env', 'dev')).toEqual({ names: ['a2', 'b1'], total: 2 });
    expect(await matches('env')).toEqual({ names: ['a1', 'a2', 'b1', 'b2'], total: 4 });
    expect(await matches('team', 'core')).toEqual({ names: ['b1'], total: 1 });
    expect(await matches('nothing')).toEqual({ names: [], total: 0 });
  });

  it('keeps the count right after a workspace update moves one, and after the project endpoint moves several', async () => {
    // a2 (own env=dev) moves to beta: still dev. a1 moves to beta: now inherits dev.
    expect(
      (
        await api.patch(`/api/v2/workspaces/${ws.a2}`, {
          data: { type: 'workspaces', relationships: { project: { data: { type: 'projects', id: beta } } } },
        })
      ).status,
    ).toBe(200);
    expect(
      (
        await api.post(`/api/v2/projects/${beta}/relationships/workspaces`, {
          data: [{ type: 'workspaces', id: ws.a1 }],
        })
      ).status,
    ).toBe(204);
    expect(await matches('env', 'prod')).toEqual({ names: ['b2'], total: 1 });
    expect(await matches('env', 'dev')).toEqual({ names: ['a1', 'a2', 'b1'], total: 3 });
    // b2 (own env=prod) and b1 (own team only) move to alpha by the project endpoint: b1 now inherits prod.
    expect(
      (
        await api.post(`/api/v2/projects/${alpha}/relationships/workspaces`, {
          data: [
            { type: 'workspaces', id: ws.b1 },
            { type: 'workspaces', id: ws.b2 },
          ],
        })
      ).status,
    ).toBe(204);
    expect(await matches('env', 'prod')).toEqual({ names: ['b1', 'b2'], total: 2 });
    expect(await matches('env', 'dev')).toEqual({ names: ['a1', 'a2'], total: 2 });
    // A move together with new bindings in one update.
    const res = await api.patch(`/api/v2/workspaces/${ws.a1}`, {
      data: {
        type: 'workspaces',
        relationships: {
          project: { data: { type: 'projects', id: alpha } },
          'tag-bindings': { data: [binding('env', 'qa')] },
        },
      },
    });
    expect(res.status, res.text).toBe(200);
    expect(await matches('env', 'qa')).toEqual({ names: ['a1'], total: 1 });
    expect(await matches('env', 'prod')).toEqual({ names: ['b1', 'b2'], total: 2 });
    for (const r of await stored()) expect(r.bindingProject, r.name).toBe(r.workspaceProject);
  });
});
