import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TestApi } from '../../helpers/api.js';

/**
 * Hostile input on runs: a refused report changes nothing, and the workspace's run list refuses
 * filters and includes it does not know (400) rather than answering with every run.
 */
describe('run input refusals', () => {
  let api: TestApi;
  let n = 0;

  async function workspace(): Promise<string> {
    const res = await api.post('/api/v2/organizations/acme/workspaces', {
      data: { type: 'workspaces', attributes: { name: `refusals-${++n}` } },
    });
    expect(res.status).toBe(201);
    return res.body.data.id;
  }
  async function run(ws: string): Promise<string> {
    const res = await api.post('/api/v2/runs', {
      data: {
        type: 'runs',
        attributes: { recorded: true },
        relationships: { workspace: { data: { type: 'workspaces', id: ws } } },
      },
    });
    expect(res.status).toBe(201);
    return res.body.data.id;
  }
  const report = (id: string, attributes: Record<string, unknown>) =>
    api.post(`/api/v2/runs/${id}/actions/report`, { data: { type: 'run-reports', attributes } });
  /** Everything a refused report must leave alone: the run, its workspace (lock) and the audit trail. */
  const snapshot = async (id: string, ws: string) => ({
    run: await api.store.db.selectFrom('runs').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
    workspace: await api.store.db.selectFrom('workspaces').selectAll().where('id', '=', ws).executeTakeFirstOrThrow(),
    audit: await api.store.db.selectFrom('audit_events').select('seq').orderBy('seq').execute(),
    document: (await api.get(`/api/v2/runs/${id}`)).body.data.attributes,
  });

  beforeAll(async () => {
    api = await TestApi.create();
    expect((await api.createOrg('acme')).status).toBe(201);
  });
  afterAll(() => api.close());

  it('a report refused at a later move changes nothing (status, timestamps, lock, audit)', async () => {
    const ws = await workspace();
    const id = await run(ws);
    expect((await report(id, { status: 'planning' })).status).toBe(200);
    const before = await snapshot(id, ws);
    expect(before.run.status).toBe('planning');
    expect(before.workspace.locked).toBe(1);

    const res = await report(id, { status: 'applied', phases: [{ status: 'planned' }, { status: 'pending' }] });
    expect(res.status).toBe(409);
    expect(res.body.errors[0]).toMatchObject({ status: '409' });
    expect(res.body.errors[0].detail).toContain('cannot move from planned to pending');

    const after = await snapshot(id, ws);
    expect(after).toEqual(before);
    expect(after.document.status).toBe('planning');
    expect(after.document['status-timestamps']['planned-at']).toBeUndefined();
  });

  it('a report refused on a later move that would release the lock leaves the lock held', async () => {
    const ws = await workspace();
    const id = await run(ws);
    expect((await report(id, { status: 'planning' })).status).toBe(200);
    const before = await snapshot(id, ws);
    // planning -> errored (releases the lock) is allowed; errored -> applied is not.
    const res = await report(id, { status: 'applied', phases: [{ status: 'errored' }] });
    expect(res.status).toBe(409);
    expect(await snapshot(id, ws)).toEqual(before);
  });

  it('a report whose every move is allowed still makes them all, in one request', async () => {
    const ws = await workspace();
    const id = await run(ws);
    const res = await report(id, {
      status: 'applied',
      phases: [{ status: 'planning' }, { status: 'planned' }, { status: 'applying' }],
    });
    expect(res.status).toBe(200);
    expect(res.body.data.attributes.status).toBe('applied');
    const locked = (await api.get(`/api/v2/workspaces/${ws}`)).body.data.attributes.locked;
    expect(locked).toBe(false);
  });

  it('GET /workspaces/:id/runs refuses unknown filter[...] and search[...] parameters, naming them', async () => {
    const ws = await workspace();
    await run(ws);
    for (const name of ['filter[stauts]', 'filter[status_group]', 'filter[timeframe]', 'search[name]']) {
      const res = await api.get(`/api/v2/workspaces/${ws}/runs?${encodeURIComponent(name)}=x`);
      expect(res.status, name).toBe(400);
      expect(res.body.errors[0].source).toEqual({ parameter: name });
    }
  });

  it('GET /workspaces/:id/runs accepts every filter go-tfe RunListOptions sends, and applies it', async () => {
    const ws = await workspace();
    const id = await run(ws);
    const ids = async (query: string) => {
      const res = await api.get(`/api/v2/workspaces/${ws}/runs?${query}`);
      expect(res.status, query).toBe(200);
      return res.body.data.map((r: { id: string }) => r.id);
    };
    const matching = [`search[basic]=${id}`, 'filter[status]=pending', 'filter[source]=tfe-api'];
    expect(await ids([...matching, 'filter[operation]=plan_and_apply'].join('&'))).toEqual([id]);
    // A run created by the site administrator's token has no user, and no berth run has a commit.
    for (const q of ['search[user]=u', 'search[commit]=abc', 'search[basic]=b', 'filter[operation]=destroy'])
      expect(await ids(q), q).toEqual([]);
  });

  it('GET /workspaces/:id/runs refuses an unknown include and accepts every go-tfe RunIncludeOpt', async () => {
    const ws = await workspace();
    await run(ws);
    const bad = await api.get(`/api/v2/workspaces/${ws}/runs?include=bogus`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0]).toMatchObject({ detail: 'Invalid include parameter', source: { parameter: 'include' } });
    // go-tfe's RunIncludeOpt values, written out from the client rather than taken from berth's
    // RUN_INCLUDES: the test holds berth to what the client sends.
    const all = [
      'plan',
      'apply',
      'created_by',
      'cost_estimate',
      'configuration_version',
      'configuration_version.ingress_attributes',
      'workspace',
      'task_stages',
    ].join(',');
    expect((await api.get(`/api/v2/workspaces/${ws}/runs?include=${all}`)).status).toBe(200);
  });

  it('GET /organizations/:org/runs/queue refuses filters, searches and includes (go-tfe sends none)', async () => {
    expect((await api.get('/api/v2/organizations/acme/runs/queue')).status).toBe(200);
    expect((await api.get('/api/v2/organizations/acme/runs/queue?page[size]=5')).status).toBe(200);
    for (const q of ['filter[status]=pending', 'search[basic]=x', 'include=bogus', 'include=workspace']) {
      const res = await api.get(`/api/v2/organizations/acme/runs/queue?${q}`);
      expect(res.status, q).toBe(400);
    }
  });
});
