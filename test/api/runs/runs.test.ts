import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCAL_SITE_ADMIN } from '../../../src/domain/permissions/actor.js';
import { createUserToken } from '../../../src/services/identity/tokens.js';
import { createUser } from '../../../src/services/identity/users.js';
import { TestApi } from '../../helpers/api.js';

describe('run records, the locks runs hold, and the metrics they feed', () => {
  let api: TestApi;
  let n = 0;

  async function workspace(): Promise<string> {
    const res = await api.post('/api/v2/organizations/acme/workspaces', {
      data: { type: 'workspaces', attributes: { name: `w${++n}` } },
    });
    expect(res.status).toBe(201);
    return res.body.data.id;
  }
  async function run(ws: string, attrs: Record<string, unknown> = {}) {
    const res = await api.post('/api/v2/runs', {
      data: { type: 'runs', attributes: attrs, relationships: { workspace: { data: { type: 'workspaces', id: ws } } } },
    });
    expect(res.status).toBe(201);
    return res.body.data;
  }
  const report = (id: string, status: string, extra: Record<string, unknown> = {}) =>
    api.post(`/api/v2/runs/${id}/actions/report`, { data: { type: 'run-reports', attributes: { status, ...extra } } });
  const t = (ms: number) => new Date(Date.UTC(2026, 0, 1) + ms).toISOString();

  beforeAll(async () => {
    api = await TestApi.create();
    expect((await api.createOrg('acme')).status).toBe(201);
  });
  afterAll(() => api.close());

  it('creates a pending run that becomes the workspace current run', async () => {
    const ws = await workspace();
    const r = await run(ws, { message: 'deploy', 'is-destroy': false });
    expect(r.id).toMatch(/^run-[A-Za-z0-9]{16}$/);
    expect(r.attributes).toMatchObject({ status: 'pending', message: 'deploy', 'is-destroy': false });
    const doc = await api.get(`/api/v2/workspaces/${ws}?include=current_run,current_run.plan`);
    expect(doc.body.data.relationships['current-run'].data).toEqual({ id: r.id, type: 'runs' });
    expect(doc.body.included.map((i: any) => i.type).sort()).toEqual(['plans', 'runs']);
    // The plan alone brings its run too: JSON:API includes every resource on the path.
    const planOnly = await api.get(`/api/v2/workspaces/${ws}?include=current_run.plan`);
    expect(planOnly.body.included.map((i: any) => `${i.type}/${i.id}`).sort()).toEqual([
      `plans/${r.relationships.plan.data.id}`,
      `runs/${r.id}`,
    ]);
    expect((await api.get(`/api/v2/runs/${r.id}`)).body.data.id).toBe(r.id);
    expect((await api.get(`/api/v2/workspaces/${ws}/runs`)).body.data.map((x: any) => x.id)).toEqual([r.id]);
  });

  it('rejects a run without a workspace (422) or for an unknown one (404)', async () => {
    expect((await api.post('/api/v2/runs', { data: { type: 'runs', attributes: {} } })).status).toBe(422);
    const res = await api.post('/api/v2/runs', {
      data: { type: 'runs', relationships: { workspace: { data: { type: 'workspaces', id: 'ws-AAAAAAAAAAAAAAAA' } } } },
    });
    expect(res.status).toBe(404);
  });

  it('a planning or applying run holds the workspace lock and releases it when it ends', async () => {
    const ws = await workspace();
    const r = await run(ws);
    expect((await report(r.id, 'planning')).status).toBe(200);
    let doc = (await api.get(`/api/v2/workspaces/${ws}`)).body.data;
    expect(doc.attributes.locked).toBe(true);
    expect(doc.relationships['locked-by'].data).toEqual({ id: r.id, type: 'runs' });
    // Another caller cannot unlock it; the conflict names the run.
    const unlock = await api.post(`/api/v2/workspaces/${ws}/actions/unlock`);
    expect(unlock.status).toBe(409);
    expect(unlock.body.errors[0].detail).toContain(`is locked by Run ${r.id}`);
    await report(r.id, 'planned');
    expect((await api.post(`/api/v2/runs/${r.id}/actions/apply`)).status).toBe(202);
    await report(r.id, 'applying');
    expect((await api.get(`/api/v2/workspaces/${ws}`)).body.data.attributes.locked).toBe(true);
    await report(r.id, 'applied');
    doc = (await api.get(`/api/v2/workspaces/${ws}`)).body.data;
    expect(doc.attributes.locked).toBe(false);
    expect((await api.get(`/api/v2/runs/${r.id}`)).body.data.attributes.status).toBe('applied');
  });

  it('a run cannot start planning while someone else holds the lock (409)', async () => {
    const ws = await workspace();
    // Another site administrator, a user of their own, holds the lock.
    const ctx = TestApi.ctx(api.store, LOCAL_SITE_ADMIN);
    const other = await createUser(ctx, { username: 'other-admin', email: 'other@example.com', isSiteAdmin: true });
    const token = (await createUserToken(ctx, other.id, null)).token!;
    expect((await api.post(`/api/v2/workspaces/${ws}/actions/lock`, undefined, { token })).status).toBe(200);
    const r = await run(ws);
    const res = await report(r.id, 'planning');
    expect(res.status).toBe(409);
    expect((await api.get(`/api/v2/runs/${r.id}`)).body.data.attributes.status).toBe('pending');
  });

  it('a run reported by the caller who holds the workspace lock works under that lock and leaves it held', async () => {
    const ws = await workspace();
    expect((await api.post(`/api/v2/workspaces/${ws}/actions/lock`, { reason: 'import' })).status).toBe(200);
    const r = await run(ws);
    for (const status of ['planning', 'planned', 'applying', 'applied'])
      expect((await report(r.id, status)).status).toBe(200);
    expect((await api.get(`/api/v2/runs/${r.id}`)).body.data.attributes.status).toBe('applied');
    const doc = (await api.get(`/api/v2/workspaces/${ws}`)).body.data;
    // The caller's own lock, untouched: neither taken over by the run nor released when it ended.
    expect(doc.attributes).toMatchObject({ locked: true, 'locked-reason': 'import' });
    expect(doc.relationships['locked-by']?.data?.type).not.toBe('runs');
  });

  it('refuses impossible transitions (409) and accepts discard and cancel (202)', async () => {
    const ws = await workspace();
    const r = await run(ws);
    const bad = await report(r.id, 'applied');
    expect(bad.status).toBe(409);
    expect(bad.body.errors[0].detail).toContain('cannot move from pending to applied');
    expect((await report(r.id, 'bogus')).status).toBe(422);
    await report(r.id, 'planning');
    await report(r.id, 'planned');
    expect((await api.post(`/api/v2/runs/${r.id}/actions/discard`)).status).toBe(202);
    expect((await api.get(`/api/v2/workspaces/${ws}`)).body.data.attributes.locked).toBe(false);
    expect((await api.post(`/api/v2/runs/${r.id}/actions/cancel`)).status).toBe(409);
    const r2 = await run(ws);
    expect((await api.post(`/api/v2/runs/${r2.id}/actions/cancel`)).status).toBe(202);
    expect((await api.get(`/api/v2/runs/${r2.id}`)).body.data.attributes.status).toBe('canceled');
  });

  it('lists only the runs in the statuses filter[status] names; an unknown status is a 400 naming it', async () => {
    const ws = await workspace();
    const discarded = await run(ws);
    await report(discarded.id, 'planning');
    await report(discarded.id, 'planned');
    expect((await api.post(`/api/v2/runs/${discarded.id}/actions/discard`)).status).toBe(202);
    const canceled = await run(ws);
    expect((await api.post(`/api/v2/runs/${canceled.id}/actions/cancel`)).status).toBe(202);
    const pending = await run(ws);
    const ids = async (query: string) =>
      (await api.get(`/api/v2/workspaces/${ws}/runs?${query}`)).body.data.map((r: { id: string }) => r.id);
    expect(await ids('')).toEqual([pending.id, canceled.id, discarded.id]);
    expect(await ids('filter[status]=canceled')).toEqual([canceled.id]);
    expect(await ids(`filter[status]=${encodeURIComponent('discarded, pending')}`)).toEqual([pending.id, discarded.id]);
    // A status of HCP's that berth's runs never have (a run task stage) is taken, and matches none.
    expect(await ids('filter[status]=post_plan_running')).toEqual([]);
    expect(await ids('filter[status]=post_plan_running,canceled')).toEqual([canceled.id]);
    const counted = await api.get(`/api/v2/workspaces/${ws}/runs?filter[status]=canceled`);
    expect(counted.body.meta.pagination['total-count']).toBe(1);
    const bad = await api.get(`/api/v2/workspaces/${ws}/runs?filter[status]=applied,finished`);
    expect(bad.status).toBe(400);
    expect(bad.body.errors[0].source).toEqual({ parameter: 'filter[status]' });
    expect(bad.body.errors[0].detail).toContain('"finished"');
  });

  it('computes the performance attributes over the past 30 runs that errored or applied', async () => {
    const ws = await workspace();
    const fresh = (await api.get(`/api/v2/workspaces/${ws}`)).body.data.attributes;
    expect(fresh['workspace-kpis-runs-count']).toBeNull();
    expect(fresh['workspace-kpis-run-count']).toBeNull();
    // 5 old runs with slow plans (ignored: outside the window), then 30 counted runs.
    const record = async (
      planMs: number,
      applyMs: number | null,
      opts: { errored?: boolean; policy?: boolean } = {},
    ) => {
      const r = await run(ws);
      await report(r.id, 'planning', { at: t(0) });
      if (opts.errored && applyMs === null) {
        await report(r.id, 'errored', { at: t(planMs), 'policy-check-failed': opts.policy ?? false });
        return;
      }
      await report(r.id, 'planned', { at: t(planMs) });
      await report(r.id, 'applying', { at: t(planMs + 10) });
      await report(r.id, opts.errored ? 'errored' : 'applied', { at: t(planMs + 10 + applyMs!) });
    };
    for (let i = 0; i < 5; i++) await record(99_000, 99_000);
    for (let i = 0; i < 24; i++) await record(1000, 3000);
    for (let i = 0; i < 4; i++) await record(2000, null, { errored: true, policy: i < 2 });
    for (let i = 0; i < 2; i++) await record(1000, 3000, { errored: true });
    // A discarded and a pending run are not counted.
    const d = await run(ws);
    await report(d.id, 'discarded');
    await run(ws);
    const a = (await api.get(`/api/v2/workspaces/${ws}`)).body.data.attributes;
    expect(a['workspace-kpis-runs-count']).toBe(30);
    // The spec's name for the same figure.
    expect(a['workspace-kpis-run-count']).toBe(30);
    expect(a['run-failures']).toBe(6);
    expect(a['policy-check-failures']).toBe(2);
    // Plan: 24 + 2 runs of 1000 ms and 4 of 2000 ms; apply: 26 runs of 3000 ms.
    expect(a['plan-duration-average']).toBe(Math.round((26 * 1000 + 4 * 2000) / 30));
    expect(a['apply-duration-average']).toBe(3000);
    // The list shows the same document.
    const listed = (await api.get('/api/v2/organizations/acme/workspaces?page[size]=100')).body.data.find(
      (w: any) => w.id === ws,
    );
    expect(listed.attributes['workspace-kpis-runs-count']).toBe(30);
  });

  it('filters and sorts workspaces by their current run', async () => {
    const a = await workspace();
    const b = await workspace();
    const ra = await run(a);
    await report(ra.id, 'planning');
    await run(b);
    const planning = (
      await api.get('/api/v2/organizations/acme/workspaces?filter[current-run][status]=planning&page[size]=100')
    ).body.data.map((w: any) => w.id);
    expect(planning).toContain(a);
    expect(planning).not.toContain(b);
    const sorted = (
      await api.get('/api/v2/organizations/acme/workspaces?sort=-current-run.created-at&page[size]=100')
    ).body.data.map((w: any) => w.id);
    expect(sorted.indexOf(b)).toBeLessThan(sorted.indexOf(a));
  });

  it('includes the current state version and its outputs, hiding sensitive values', async () => {
    const ws = await workspace();
    const state = readFileSync(new URL('../../fixtures/state-small.json', import.meta.url));
    const parsed = JSON.parse(state.toString());
    await api.post(`/api/v2/workspaces/${ws}/actions/lock`);
    await api.post(`/api/v2/workspaces/${ws}/state-versions`, {
      data: {
        type: 'state-versions',
        attributes: {
          serial: parsed.serial,
          lineage: parsed.lineage,
          md5: createHash('md5').update(state).digest('hex'),
          state: state.toString('base64'),
        },
      },
    });
    await api.post(`/api/v2/workspaces/${ws}/actions/unlock`);
    const doc = await api.get(`/api/v2/workspaces/${ws}?include=current-state-version,outputs`);
    expect(doc.status).toBe(200);
    const outputs = doc.body.included.filter((i: any) => i.type === 'workspace-outputs');
    expect(outputs.map((o: any) => [o.attributes.name, o.attributes.value])).toEqual([
      ['url', 'https://example.test'],
      ['password', null],
    ]);
    expect(doc.body.data.relationships.outputs.data).toHaveLength(2);
    expect(
      doc.body.included.some(
        (i: any) =>
          i.type === 'state-versions' && i.id === doc.body.data.relationships['current-state-version'].data.id,
      ),
    ).toBe(true);
    expect(doc.text).not.toContain('hunter2');
  });
});
