import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';
import { approvedConsumersOnly } from '../../helpers/remote-state.js';
import { createWorkspace, teamUser } from '../../helpers/workspaces.js';
import { goTfeWorkspaceArray } from '../../fixtures/go-tfe.js';

const ids = (...list: string[]) => ({ data: list.map((id) => ({ type: 'workspaces', id })) });

describe('remote state consumers', () => {
  let api: TestApi;
  let subject: string;
  let a: string;
  let b: string;
  let c: string;
  let foreign: string;
  const path = () => `/api/v2/workspaces/${subject}/relationships/remote-state-consumers`;
  const consumers = async (p = path()) => {
    const res = await api.get(p);
    expect(res.status, res.text).toBe(200);
    return res.body.data.map((w: any) => w.id);
  };
  const rows = () => api.store.db.selectFrom('remote_state_consumers').selectAll().orderBy('seq').execute();

  beforeAll(async () => {
    api = await TestApi.create();
    await approvedConsumersOnly(api);
    await api.createOrg('acme');
    await api.createOrg('other');
    subject = (await createWorkspace(api, 'acme', { name: 'network' })).body.data.id;
    a = (await createWorkspace(api, 'acme', { name: 'app-a' })).body.data.id;
    b = (await createWorkspace(api, 'acme', { name: 'app-b' })).body.data.id;
    c = (await createWorkspace(api, 'acme', { name: 'app-c' })).body.data.id;
    foreign = (await createWorkspace(api, 'other', { name: 'theirs' })).body.data.id;
  });
  afterAll(() => api.close());

  it('starts empty; the relationship link points here', async () => {
    expect(await consumers()).toEqual([]);
    const ws = (await api.get(`/api/v2/workspaces/${subject}`)).body.data;
    expect(ws.relationships['remote-state-consumers']).toEqual({ links: { related: path() } });
  });

  it("POST adds with go-tfe's full workspace objects (only type and id are read): 204 without a body", async () => {
    const res = await api.post(path(), goTfeWorkspaceArray([a, b]));
    expect(res.status, res.text).toBe(204);
    expect(res.text).toBe('');
    expect(await consumers()).toEqual([a, b]);
    // Existing ones are ignored, the rest added.
    expect((await api.post(path(), ids(b, c))).status).toBe(204);
    expect(await consumers()).toEqual([a, b, c]);
  });

  it('GET returns full workspace resources, paginated (default 20)', async () => {
    const res = await api.get(`${path()}?page[size]=2`);
    expect(res.body.data).toHaveLength(2);
    expect(res.body.data[0]).toMatchObject({ id: a, type: 'workspaces', attributes: { name: 'app-a' } });
    expect(res.body.data[0].relationships.organization.data).toEqual({ id: 'acme', type: 'organizations' });
    expect(res.body.meta.pagination).toMatchObject({
      'total-count': 3,
      'total-pages': 2,
      'page-size': 2,
      'next-page': 2,
    });
    expect((await api.get(path())).body.meta.pagination['page-size']).toBe(20);
  });

  it('DELETE removes (absent ones ignored) with the go-tfe body', async () => {
    const res = await api.delete(path(), { body: goTfeWorkspaceArray([a]) });
    expect(res.status, res.text).toBe(204);
    expect(await consumers()).toEqual([b, c]);
    expect((await api.delete(path(), { body: ids(a) })).status).toBe(204);
    expect(await consumers()).toEqual([b, c]);
  });

  it('PATCH replaces the list exactly', async () => {
    expect((await api.patch(path(), goTfeWorkspaceArray([a, c]))).status).toBe(204);
    expect(await consumers()).toEqual([c, a]);
    expect((await api.patch(path(), ids(a))).status).toBe(204);
    expect(await consumers()).toEqual([a]);
  });

  it('works by organization and workspace name too', async () => {
    expect(
      await consumers('/api/v2/organizations/acme/workspaces/network/relationships/remote-state-consumers'),
    ).toEqual([a]);
    expect(
      (await api.post('/api/v2/organizations/acme/workspaces/network/relationships/remote-state-consumers', ids(b)))
        .status,
    ).toBe(204);
    expect(await consumers()).toEqual([a, b]);
  });

  it('a repeated id counts once; PATCH with an empty list clears it', async () => {
    expect((await api.patch(path(), ids(b, b))).status).toBe(204);
    expect(await consumers()).toEqual([b]);
    expect((await api.patch(path(), { data: [] })).status).toBe(204);
    expect(await consumers()).toEqual([]);
    expect((await api.patch(path(), ids(a, b))).status).toBe(204);
    expect(await consumers()).toEqual([a, b]);
  });

  it('422 for the subject itself, unknown ids, other organizations, wrong types, missing ids; all-or-nothing', async () => {
    const before = await rows();
    const cases: [unknown, string][] = [
      [ids(c, subject), '/data/1/id'],
      [ids(c, 'ws-AAAAAAAAAAAAAAAA'), '/data/1/id'],
      [ids(c, foreign), '/data/1/id'],
      [
        {
          data: [
            { type: 'workspaces', id: c },
            { type: 'projects', id: b },
          ],
        },
        '/data/1/type',
      ],
      [{ data: [{ type: 'workspaces' }] }, '/data/0/id'],
      [{ data: { type: 'workspaces', id: c } }, '/data'],
      [{}, '/data'],
    ];
    for (const method of ['POST', 'DELETE', 'PATCH']) {
      for (const [body, pointer] of cases) {
        const res = await api.request(method, path(), { body });
        expect(res.status, `${method} ${JSON.stringify(body)}: ${res.text}`).toBe(422);
        expect(res.body.errors.map((e: any) => e.source.pointer)).toContain(pointer);
        expect(await rows()).toEqual(before);
      }
    }
  });

  it('404 for an unknown subject', async () => {
    expect((await api.get('/api/v2/workspaces/ws-AAAAAAAAAAAAAAAA/relationships/remote-state-consumers')).status).toBe(
      404,
    );
    expect(
      (await api.post('/api/v2/workspaces/ws-AAAAAAAAAAAAAAAA/relationships/remote-state-consumers', ids(a))).status,
    ).toBe(404);
  });

  it('who may: PATCH only org-wide workspace managers; readers 404 on every change; outsiders 404', async () => {
    const reader = await teamUser(api, 'acme', 'reader', { read_workspaces: 1 });
    const manager = await teamUser(api, 'acme', 'manager', { manage_workspaces: 1 });
    const outsider = (await api.userToken('outsider')).token;
    const before = await rows();
    for (const method of ['POST', 'DELETE', 'PATCH']) {
      expect((await api.request(method, path(), { body: ids(c), token: reader })).status).toBe(404);
      expect((await api.request(method, path(), { body: ids(c), token: outsider })).status).toBe(404);
    }
    expect(await rows()).toEqual(before);
    expect((await api.get(path(), { token: reader })).status).toBe(200);
    expect((await api.get(path(), { token: outsider })).status).toBe(404);
    expect((await api.patch(path(), ids(a, b), { token: manager })).status).toBe(204);
  });

  it('with global-remote-state true: GET lists every other workspace; changes are 422 and change nothing', async () => {
    await api.patch(`/api/v2/workspaces/${subject}`, {
      data: { type: 'workspaces', attributes: { 'global-remote-state': true } },
    });
    expect(await consumers()).toEqual([a, b, c]);
    const before = await rows();
    for (const method of ['POST', 'DELETE', 'PATCH']) {
      const res = await api.request(method, path(), { body: ids(c) });
      expect(res.status).toBe(422);
      expect(res.body.errors[0].detail).toMatch(/global-remote-state/);
    }
    expect(await rows()).toEqual(before);
    await api.patch(`/api/v2/workspaces/${subject}`, {
      data: { type: 'workspaces', attributes: { 'global-remote-state': false } },
    });
    expect(await consumers()).toEqual([a, b]);
  });

  it('deleting a workspace removes it from every consumer list, and its own list goes with it', async () => {
    const other = (await createWorkspace(api, 'acme', { name: 'other-subject' })).body.data.id;
    await api.post(`/api/v2/workspaces/${other}/relationships/remote-state-consumers`, ids(a, subject));
    expect((await api.delete(`/api/v2/workspaces/${a}`)).status).toBe(204);
    expect(await consumers()).toEqual([b]);
    expect(await consumers(`/api/v2/workspaces/${other}/relationships/remote-state-consumers`)).toEqual([subject]);
    expect((await api.delete(`/api/v2/workspaces/${other}`)).status).toBe(204);
    expect((await rows()).filter((r) => r.workspace_id === other || r.consumer_id === other)).toEqual([]);
  });
});
