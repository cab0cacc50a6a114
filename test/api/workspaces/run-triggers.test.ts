import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { grantWorkspace, teamMember, accessFixture, type AccessFixture } from '../../helpers/access.js';
import { TestApi } from '../../helpers/api.js';
import { TestClock } from '../../helpers/clock.js';
import { createWorkspace } from '../../helpers/workspaces.js';

/**
 * HCP Terraform's Run Triggers API as go-tfe (run_trigger_integration_test.go) and the tfe
 * provider's `tfe_run_trigger` use it: create, list inbound and outbound, show, delete, the
 * filter's 400, the 422s, who may, and that a deleted workspace takes its triggers along.
 */

const P = '/api/v2';
/** The body go-tfe sends (`RunTriggerCreateOptions`: its type, a whole workspace object as sourceable). */
const goTfeBody = (sourceId: string) => ({
  data: {
    type: 'run-triggers',
    relationships: {
      sourceable: { data: { type: 'workspaces', id: sourceId, attributes: { name: '', 'auto-apply': false } } },
    },
  },
});
/** HCP's documented sample payload: no type at all. */
const hcpBody = (sourceId: string) => ({
  data: { relationships: { sourceable: { data: { id: sourceId, type: 'workspaces' } } } },
});
const FILTER_DETAIL = "Filter parameter run-trigger type is required and must be either 'inbound' or 'outbound'";

describe('run triggers', () => {
  let api: TestApi;
  let f: AccessFixture;
  let clock: TestClock;
  let target: string;
  let source: string;
  let other: string;
  const t = () => ({ token: f.owner.token });
  const ws = async (name: string, org = 'acme') =>
    (await createWorkspace(api, org, { name }, undefined, f.owner.token)).body.data.id as string;
  const create = (on: string, body: unknown, token = f.owner.token) =>
    api.post(`${P}/workspaces/${on}/run-triggers`, body, { token });
  const list = (on: string, query: string, token = f.owner.token) =>
    api.get(`${P}/workspaces/${on}/run-triggers${query}`, { token });
  const rows = () => api.store.db.selectFrom('run_triggers').selectAll().orderBy('seq').execute();

  beforeEach(async () => {
    clock = new TestClock();
    api = await TestApi.create({ clock });
    f = await accessFixture(api);
    target = f.web;
    source = await ws('network');
    other = await ws('database');
  });
  afterEach(() => api.close());

  it('creates a trigger (201) with both names, the relationships and its link, from go-tfe and HCP bodies', async () => {
    const res = await create(target, goTfeBody(source));
    expect(res.status, res.text).toBe(201);
    const rt = res.body.data;
    expect(rt.id).toMatch(/^rt-[A-Za-z0-9]{16}$/);
    expect(rt).toEqual({
      id: rt.id,
      type: 'run-triggers',
      attributes: { 'workspace-name': 'web', 'sourceable-name': 'network', 'created-at': clock.now().toISOString() },
      relationships: {
        workspace: { data: { id: target, type: 'workspaces' } },
        sourceable: { data: { id: source, type: 'workspaces' } },
      },
      links: { self: `${P}/run-triggers/${rt.id}` },
    });
    const second = await create(target, hcpBody(other));
    expect(second.status, second.text).toBe(201);
    expect(second.body.data.attributes['sourceable-name']).toBe('database');
    // The provider reads it back by id: the same document.
    const read = await api.get(`${P}/run-triggers/${rt.id}`, t());
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(rt);
  });

  it('lists inbound and outbound triggers in the order they were made, with pages and total-count', async () => {
    const one = (await create(target, goTfeBody(source))).body.data;
    clock.advance(1000);
    const two = (await create(target, goTfeBody(other))).body.data;
    const third = (await create(other, goTfeBody(source))).body.data;

    const inbound = await list(target, '?filter%5Brun-trigger%5D%5Btype%5D=inbound');
    expect(inbound.status, inbound.text).toBe(200);
    // go-tfe's `assert.Contains(rtl.Items, created)`: each item equals the created document.
    expect(inbound.body.data).toEqual([one, two]);
    expect(inbound.body.meta.pagination).toMatchObject({ 'current-page': 1, 'total-count': 2 });

    const outbound = await list(source, '?filter[run-trigger][type]=outbound');
    expect(outbound.body.data.map((r: any) => r.id)).toEqual([one.id, third.id]);
    expect((await list(target, '?filter[run-trigger][type]=outbound')).body.data).toEqual([]);

    const far = await list(target, '?filter[run-trigger][type]=inbound&page[number]=999&page[size]=100');
    expect(far.status).toBe(200);
    expect(far.body.data).toEqual([]);
    expect(far.body.meta.pagination).toMatchObject({ 'current-page': 999, 'total-count': 2 });
  });

  it('needs filter[run-trigger][type] inbound or outbound: 400 with HCP words otherwise', async () => {
    for (const query of ['', '?filter[run-trigger][type]=oubound', '?filter[run-trigger][type]=']) {
      const res = await list(target, query);
      expect(res.status, query).toBe(400);
      expect(res.body.errors[0]).toMatchObject({ status: '400', title: 'bad request', detail: FILTER_DETAIL });
    }
    const unknown = await list(target, '?filter[run-trigger][kind]=inbound&filter[run-trigger][type]=inbound');
    expect(unknown.status).toBe(400);
  });

  it('include=sourceable and include=workspace add the full workspaces; an unknown include is a 400', async () => {
    const rt = (await create(target, goTfeBody(source))).body.data;
    const withSource = await list(target, '?filter[run-trigger][type]=inbound&include=sourceable');
    expect(withSource.body.included.map((w: any) => [w.type, w.id, w.attributes.name])).toEqual([
      ['workspaces', source, 'network'],
    ]);
    const both = await api.get(`${P}/run-triggers/${rt.id}?include=workspace,sourceable`, t());
    expect(both.body.included.map((w: any) => w.id)).toEqual([target, source]);
    const bad = await list(target, '?filter[run-trigger][type]=inbound&include=runs');
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].detail).toBe('Invalid include parameter');
  });

  it('deletes (204); the trigger is gone for show and delete alike (404)', async () => {
    const rt = (await create(target, goTfeBody(source))).body.data;
    const del = await api.delete(`${P}/run-triggers/${rt.id}`, t());
    expect(del.status, del.text).toBe(204);
    expect((await api.get(`${P}/run-triggers/${rt.id}`, t())).status).toBe(404);
    expect((await api.delete(`${P}/run-triggers/${rt.id}`, t())).status).toBe(404);
    expect((await api.get(`${P}/run-triggers/nonexisting`, t())).status).toBe(404);
    expect(await rows()).toEqual([]);
  });

  it('refuses itself, a source it has, a 21st source and a missing or malformed sourceable (422, nothing stored)', async () => {
    const refused = async (body: unknown, pointer: string, detail?: RegExp) => {
      const before = await rows();
      const res = await create(target, body);
      expect(res.status, res.text).toBe(422);
      expect(res.body.errors[0]).toMatchObject({ status: '422', source: { pointer } });
      if (detail) expect(res.body.errors[0].detail).toMatch(detail);
      expect(await rows()).toEqual(before);
    };
    await refused(
      goTfeBody(target),
      '/data/relationships/sourceable/data/id',
      /cannot be a run trigger source of itself/,
    );
    expect((await create(target, goTfeBody(source))).status).toBe(201);
    await refused(goTfeBody(source), '/data/relationships/sourceable/data/id', /already a run trigger source/);
    await refused({ data: { type: 'run-triggers' } }, '/data/relationships/sourceable/data', /sourceable is required/);
    await refused(
      { data: { type: 'run-triggers', relationships: { sourceable: { data: null } } } },
      '/data/relationships/sourceable/data',
    );
    await refused(
      { data: { type: 'run-triggers', relationships: { sourceable: { data: { type: 'projects', id: f.alpha } } } } },
      '/data/relationships/sourceable/data/type',
    );
    await refused({ data: { type: 'runs', relationships: {} } }, '/data/type');
    // Twenty sources in all, then no more.
    expect((await create(target, goTfeBody(other))).status).toBe(201);
    for (let i = 0; i < 18; i++) expect((await create(target, goTfeBody(await ws(`src-${i}`)))).status).toBe(201);
    await refused(
      goTfeBody(await ws('src-21')),
      '/data/relationships/sourceable/data/id',
      /at most 20 run trigger sources/,
    );
  });

  it('a malformed body is a 4xx JSON:API error, never a 500, and stores nothing', async () => {
    const bodies: unknown[] = [
      { data: [] },
      { data: 'x' },
      { data: { relationships: 'x' } },
      { data: { relationships: { sourceable: 'x' } } },
      { data: { relationships: { sourceable: { data: 'ws-x' } } } },
      { data: { relationships: { sourceable: { data: { type: 'workspaces', id: 7 } } } } },
      { data: { relationships: { sourceable: { data: { type: 'workspaces', id: '' } } } } },
      {},
    ];
    for (const body of bodies) {
      const res = await create(target, body);
      expect(res.status, JSON.stringify(body)).toBeGreaterThanOrEqual(400);
      expect(res.status, JSON.stringify(body)).toBeLessThan(500);
      expect(res.body.errors[0].status).toBe(String(res.status));
    }
    const raw = await api.request('POST', `${P}/workspaces/${target}/run-triggers`, { raw: '{"data":', ...t() });
    expect(raw.status).toBe(400);
    expect(await rows()).toEqual([]);
  });

  it('404 for an unknown workspace or source, and for a source of another organization', async () => {
    expect((await create('ws-0000000000000000', goTfeBody(source))).status).toBe(404);
    const unknown = await create(target, goTfeBody('ws-0000000000000000'));
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0].detail).toBe('sourceable workspace ws-0000000000000000 not found');
    await api.createOrg('globex', f.owner.token);
    const foreign = await ws('theirs', 'globex');
    expect((await create(target, goTfeBody(foreign))).status).toBe(404);
    expect(await rows()).toEqual([]);
  });

  it('who may: admins of the workspace who read the source create and delete; readers list; either end shows', async () => {
    const reader = await teamMember(f, 'readers');
    const admin = await teamMember(f, 'admins');
    await grantWorkspace(f, reader.teamId, target, 'read');
    await grantWorkspace(f, admin.teamId, target, 'admin');
    // An admin of the target who cannot see the source: 404, as for a source that does not exist.
    expect((await create(target, goTfeBody(source), admin.token)).status).toBe(404);
    await grantWorkspace(f, admin.teamId, source, 'read');
    const rt = await create(target, goTfeBody(source), admin.token);
    expect(rt.status, rt.text).toBe(201);
    // A reader of the target lists and shows, but creates and deletes nothing.
    expect((await list(target, '?filter[run-trigger][type]=inbound', reader.token)).body.data).toHaveLength(1);
    expect((await create(target, goTfeBody(other), reader.token)).status).toBe(404);
    expect((await api.delete(`${P}/run-triggers/${rt.body.data.id}`, { token: reader.token })).status).toBe(404);
    // Someone who reads only the source sees the trigger (HCP: runs of either end), and includes
    // hold only what they may read.
    const sourceReader = await teamMember(f, 'source-readers');
    await grantWorkspace(f, sourceReader.teamId, source, 'read');
    const shown = await api.get(`${P}/run-triggers/${rt.body.data.id}?include=workspace,sourceable`, {
      token: sourceReader.token,
    });
    expect(shown.status).toBe(200);
    expect(shown.body.included.map((w: any) => w.id)).toEqual([source]);
    expect((await list(target, '?filter[run-trigger][type]=inbound', sourceReader.token)).status).toBe(404);
    expect((await api.delete(`${P}/run-triggers/${rt.body.data.id}`, { token: sourceReader.token })).status).toBe(404);
    // Nobody else sees it at all.
    const stranger = await teamMember(f, 'strangers');
    expect((await api.get(`${P}/run-triggers/${rt.body.data.id}`, { token: stranger.token })).status).toBe(404);
    expect((await api.delete(`${P}/run-triggers/${rt.body.data.id}`, { token: admin.token })).status).toBe(204);
  });

  it('creates made at once (the provider applies tfe_run_trigger with count in parallel) keep the limit of 20', async () => {
    const sources: string[] = [];
    for (let i = 0; i < 25; i++) sources.push(await ws(`parallel-${i}`));
    const answers = await Promise.all(sources.map((id) => create(target, goTfeBody(id))));
    expect(answers.filter((r) => r.status === 201)).toHaveLength(20);
    expect(answers.filter((r) => r.status === 422)).toHaveLength(5);
    expect(answers.every((r) => r.status === 201 || r.status === 422)).toBe(true);
    expect(await rows()).toHaveLength(20);
  });

  it('deleting a workspace deletes its triggers both ways', async () => {
    await create(target, goTfeBody(source));
    await create(other, goTfeBody(source));
    await create(source, goTfeBody(other));
    expect((await api.delete(`${P}/workspaces/${source}`, t())).status).toBe(204);
    expect(await rows()).toEqual([]);
  });
});
