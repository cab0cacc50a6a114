import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { appendRunLog, storeRunState } from '../../../src/services/runs/run-phases.js';
import { claimRun } from '../../../src/services/runs/run-claim.js';
import { openStore, type Store } from '../../../src/store/open.js';
import { accessFixture, grantWorkspace, teamMember, type AccessFixture } from '../../helpers/access.js';
import { TestApi } from '../../helpers/api.js';
import { sharedDatabase } from '../../helpers/store.js';
import {
  appWithClock,
  claim,
  EXECUTING,
  executingFixture,
  finish,
  newConfiguration,
  now,
  P,
  queueRun,
  runBody,
  runStatus,
  workspaceDoc,
} from '../../helpers/run-execution.js';

/**
 * Runs that berth executes, as HCP Terraform answers them: created from a configuration version
 * with their options, queued FIFO per workspace (one active run, holding the workspace's lock;
 * plan-only runs apart), moved by the user's actions (409 where HCP refuses) and by the executor's
 * side (claim, finishPhase), which the tests call directly.
 */
describe('executed runs', () => {
  let f: AccessFixture;
  beforeEach(async () => {
    f = await executingFixture();
    await newConfiguration(f, f.web);
  });
  afterEach(() => f.api.close());
  const t = () => ({ token: f.owner.token });
  const act = (id: string, action: string, token = f.owner.token) =>
    f.api.post(`${P}/runs/${id}/actions/${action}`, undefined, { token });

  /** A run that planned changes and waits for confirmation. */
  const planned = async (attributes: Record<string, unknown> = {}) => {
    const run = await queueRun(f, f.web, attributes);
    await claim(f, run.id, 'plan');
    await finish(f, run.id, 'plan');
    expect(await runStatus(f, run.id)).toBe('planned');
    return run;
  };

  it('are created with their options and the given configuration version', async () => {
    const cv = await newConfiguration(f, f.web);
    const res = await f.api.post(
      `${P}/runs`,
      runBody(
        f.web,
        {
          message: 'with options',
          refresh: false,
          'allow-empty-apply': true,
          'target-addrs': ['terraform_data.a'],
          'replace-addrs': ['terraform_data.b["k"]'],
          variables: [{ key: 'region', value: '"eu"' }],
        },
        cv.id,
      ),
      t(),
    );
    expect(res.status, res.text).toBe(201);
    const run = res.body.data;
    expect(run.attributes).toMatchObject({
      status: 'plan_queued',
      message: 'with options',
      refresh: false,
      'refresh-only': false,
      'plan-only': false,
      'auto-apply': false,
      'allow-empty-apply': true,
      'target-addrs': ['terraform_data.a'],
      'replace-addrs': ['terraform_data.b["k"]'],
      variables: [{ key: 'region', value: '"eu"' }],
    });
    expect(run.relationships['configuration-version'].data.id).toBe(cv.id);
    expect(run.relationships.plan.data.id).toBe(run.id.replace(/^run-/, 'plan-'));
    // A bad address or variable name is a 422, and queues nothing.
    const bad = await f.api.post(`${P}/runs`, runBody(f.web, { 'target-addrs': ['a b'] }), t());
    expect(bad.status).toBe(422);
    const badVar = await f.api.post(`${P}/runs`, runBody(f.web, { variables: [{ key: '1x', value: '1' }] }), t());
    expect(badVar.status).toBe(422);
    const unknownCv = await f.api.post(`${P}/runs`, runBody(f.web, {}, 'cv-AAAAAAAAAAAAAAAA'), t());
    expect(unknownCv.status).toBe(422);
    expect((await f.api.get(`${P}/workspaces/${f.web}/runs`, t())).body.data).toHaveLength(1);
  });

  it('plan, wait for confirmation, apply: each phase through its statuses; the plan and apply documents follow', async () => {
    const run = await queueRun(f, f.web);
    expect(run.attributes.status).toBe('plan_queued');
    await claim(f, run.id, 'plan');
    expect(await runStatus(f, run.id)).toBe('planning');
    await appendRunLog(f.api.store.db, run.id, 'plan', Buffer.from('Plan: 1 to add\n'));
    await finish(f, run.id, 'plan');
    const doc = (await f.api.get(`${P}/runs/${run.id}`, t())).body.data;
    expect(doc.attributes).toMatchObject({ status: 'planned', 'has-changes': true });
    expect(doc.attributes.actions).toMatchObject({ 'is-confirmable': true, 'is-discardable': true });
    const plan = (await f.api.get(`${P}/plans/${doc.relationships.plan.data.id}`, t())).body.data;
    expect(plan.attributes).toMatchObject({ status: 'finished', 'resource-additions': 1, 'has-changes': true });
    const log = await fetchLog(plan.attributes['log-read-url']);
    expect(log).toBe('\x02Plan: 1 to add\n\x03');

    expect((await act(run.id, 'apply')).status).toBe(202);
    expect(await runStatus(f, run.id)).toBe('apply_queued');
    await claim(f, run.id, 'apply');
    expect(await runStatus(f, run.id)).toBe('applying');
    await finish(f, run.id, 'apply', { outcome: 'finished', counts: { additions: 1, changes: 0, destructions: 0 } });
    expect(await runStatus(f, run.id)).toBe('applied');
    const apply = (await f.api.get(`${P}/applies/${doc.relationships.apply.data.id}`, t())).body.data;
    expect(apply.attributes).toMatchObject({ status: 'finished', 'resource-additions': 1 });
    const timestamps = (await f.api.get(`${P}/runs/${run.id}`, t())).body.data.attributes['status-timestamps'];
    expect(Object.keys(timestamps)).toEqual(
      expect.arrayContaining([
        'plan-queued-at',
        'planning-at',
        'planned-at',
        'confirmed-at',
        'applying-at',
        'applied-at',
      ]),
    );
  });

  const fetchLog = async (url: string) => {
    const u = new URL(url);
    const res = await f.api.request('GET', u.pathname + u.search, { token: null });
    expect(res.status).toBe(200);
    return res.text;
  };

  it('auto-apply goes from the plan straight to apply_queued; no changes ends planned_and_finished', async () => {
    const auto = await queueRun(f, f.web, { 'auto-apply': true });
    await claim(f, auto.id, 'plan');
    await finish(f, auto.id, 'plan');
    expect(await runStatus(f, auto.id)).toBe('apply_queued');
    await claim(f, auto.id, 'apply');
    await finish(f, auto.id, 'apply', { outcome: 'finished' });
    const empty = await queueRun(f, f.web);
    await claim(f, empty.id, 'plan');
    await finish(f, empty.id, 'plan', { outcome: 'finished', hasChanges: false });
    expect(await runStatus(f, empty.id)).toBe('planned_and_finished');
  });

  it('refuses what HCP refuses with 409: apply before the plan, apply of a discarded run, discard of an applied one', async () => {
    const early = await queueRun(f, f.web);
    expect((await act(early.id, 'apply')).status).toBe(409);
    await claim(f, early.id, 'plan');
    expect((await act(early.id, 'apply')).status).toBe(409);
    await finish(f, early.id, 'plan');
    expect((await act(early.id, 'discard')).status).toBe(202);
    expect(await runStatus(f, early.id)).toBe('discarded');
    const applyDiscarded = await act(early.id, 'apply');
    expect(applyDiscarded.status).toBe(409);
    expect(applyDiscarded.body.errors[0].detail).toMatch(/discarded/);

    const run = await planned();
    expect((await act(run.id, 'apply')).status).toBe(202);
    await claim(f, run.id, 'apply');
    await finish(f, run.id, 'apply', { outcome: 'finished' });
    expect((await act(run.id, 'discard')).status).toBe(409);
    expect((await act(run.id, 'cancel')).status).toBe(409);
    expect((await act(run.id, 'apply')).status).toBe(409);
    expect(await runStatus(f, run.id)).toBe('applied');
    // A run berth executes takes no progress reports.
    const report = await f.api.post(
      `${P}/runs/${run.id}/actions/report`,
      { data: { type: 'run-reports', attributes: { status: 'errored' } } },
      t(),
    );
    expect(report.status).toBe(409);
    expect(await runStatus(f, run.id)).toBe('applied');
  });

  it('cancel of a queued run ends it at once; of a running one asks the executor; force-cancel only after a cancel', async () => {
    const queued = await queueRun(f, f.web);
    expect((await act(queued.id, 'force-cancel')).status).toBe(409);
    expect((await act(queued.id, 'cancel')).status).toBe(202);
    expect(await runStatus(f, queued.id)).toBe('canceled');

    const running = await queueRun(f, f.web);
    await claim(f, running.id, 'plan');
    expect((await act(running.id, 'force-cancel')).status).toBe(409);
    expect(await runStatus(f, running.id)).toBe('planning');
    expect((await act(running.id, 'cancel')).status).toBe(202);
    // Still planning: the executor interrupts terraform; meanwhile force-cancel is offered.
    const doc = (await f.api.get(`${P}/runs/${running.id}`, t())).body.data;
    expect(doc.attributes.status).toBe('planning');
    expect(doc.attributes.actions['is-force-cancelable']).toBe(true);
    expect((await act(running.id, 'force-cancel')).status).toBe(202);
    expect(await runStatus(f, running.id)).toBe('force_canceled');
    expect((await act(running.id, 'force-cancel')).status).toBe(409);
    // The executor's late finish changes nothing; the workspace is free again.
    await finish(f, running.id, 'plan');
    expect(await runStatus(f, running.id)).toBe('force_canceled');
    expect((await workspaceDoc(f, f.web)).data.attributes.locked).toBe(false);
  });

  it('a plan that ends before the cancel asked during it reached terraform: the run ends canceled, not planned', async () => {
    const run = await queueRun(f, f.web, { 'auto-apply': true });
    await claim(f, run.id, 'plan');
    expect((await act(run.id, 'cancel')).status).toBe(202);
    await finish(f, run.id, 'plan');
    const doc = (await f.api.get(`${P}/runs/${run.id}`, t())).body.data;
    expect(doc.attributes.status).toBe('canceled');
    expect(doc.attributes.actions['is-force-cancelable']).toBe(false);
    expect((await act(run.id, 'apply')).status).toBe(409);
    expect((await workspaceDoc(f, f.web)).data.attributes.locked).toBe(false);
    // Nothing of it is left for the executor.
    expect(await claimRun(f.api.store.db, 'test-executor', now())).toBeNull();
  });

  it('queue FIFO per workspace: one active run holds the lock (locked-by the run); the next waits pending', async () => {
    const first = await queueRun(f, f.web);
    const second = await queueRun(f, f.web);
    expect(second.attributes.status).toBe('pending');
    const ws = await workspaceDoc(f, f.web, '?include=locked_by');
    expect(ws.data.attributes.locked).toBe(true);
    expect(ws.data.relationships['locked-by'].data).toEqual({ type: 'runs', id: first.id });
    expect(ws.included).toEqual([expect.objectContaining({ type: 'runs', id: first.id })]);
    expect(ws.data.relationships['current-run'].data.id).toBe(first.id);
    // The lock is the run's: the owner cannot unlock it as theirs.
    expect((await f.api.post(`${P}/workspaces/${f.web}/actions/unlock`, undefined, t())).status).toBe(409);

    // Nothing of the second is claimed while the first is active (planned, waiting for confirmation).
    await claim(f, first.id, 'plan');
    await finish(f, first.id, 'plan');
    expect(await runStatus(f, second.id)).toBe('pending');
    expect((await workspaceDoc(f, f.web)).data.relationships['current-run'].data.id).toBe(first.id);

    // The first ends: the lock is released and goes to the second, now current.
    expect((await act(first.id, 'discard')).status).toBe(202);
    expect(await runStatus(f, second.id)).toBe('plan_queued');
    const next = await workspaceDoc(f, f.web);
    expect(next.data.relationships['locked-by'].data).toEqual({ type: 'runs', id: second.id });
    expect(next.data.relationships['current-run'].data.id).toBe(second.id);
    expect(next.data.attributes['current-run']).toBeUndefined();
    await claim(f, second.id, 'plan');
    await finish(f, second.id, 'plan', { outcome: 'errored', errorMessage: 'boom' });
    expect(await runStatus(f, second.id)).toBe('errored');
    const free = await workspaceDoc(f, f.web);
    expect(free.data.attributes.locked).toBe(false);
    expect(free.data.relationships['locked-by'].data).toBeNull();
  });

  it('a run waits while a user holds the lock, and starts when it is released', async () => {
    expect((await f.api.post(`${P}/workspaces/${f.web}/actions/lock`, { reason: 'mine' }, t())).status).toBe(200);
    const run = await queueRun(f, f.web);
    expect(run.attributes.status).toBe('pending');
    expect((await f.api.post(`${P}/workspaces/${f.web}/actions/unlock`, undefined, t())).status).toBe(200);
    // The executor's next claim looks at the waiting workspaces first.
    await claim(f, run.id, 'plan');
  });

  it('plan-only runs neither queue nor lock, and end planned_and_finished', async () => {
    const holder = await queueRun(f, f.web);
    const spec = await queueRun(f, f.web, { 'plan-only': true });
    expect(spec.attributes).toMatchObject({ status: 'plan_queued', 'plan-only': true });
    expect((await workspaceDoc(f, f.web)).data.relationships['locked-by'].data.id).toBe(holder.id);
    expect((await workspaceDoc(f, f.web)).data.relationships['current-run'].data.id).toBe(holder.id);
    await claim(f, holder.id, 'plan');
    await claim(f, spec.id, 'plan');
    await finish(f, spec.id, 'plan');
    expect(await runStatus(f, spec.id)).toBe('planned_and_finished');
    expect((await act(spec.id, 'apply')).status).toBe(409);
    const ws = await workspaceDoc(f, f.web);
    expect(ws.data.relationships['locked-by'].data.id).toBe(holder.id);
    expect(await runStatus(f, holder.id)).toBe('planning');
  });

  it("a log URL works until its expiry (six hours, the phases' time limit), then answers 404", async () => {
    let at = new Date();
    const app = appWithClock(f.api, { now: () => at });
    const run = await queueRun(f, f.web);
    await claim(f, run.id, 'plan');
    const tail = run.id.replace(/^run-/, '');
    const get = async (path: string, token: string | null = f.owner.token) => {
      const res = await app.fetch(
        new Request(`http://berth.test${path}`, { headers: token ? { Authorization: `Bearer ${token}` } : {} }),
      );
      return { status: res.status, text: await res.text() };
    };
    const plan = JSON.parse((await get(`${P}/plans/plan-${tail}`)).text).data;
    const path = new URL(plan.attributes['log-read-url']).pathname;
    expect(await get(`${path}?offset=0&limit=1`, null)).toEqual({ status: 200, text: '\x02' });
    expect((await get(`${path}?offset=1`, null)).text).toBe('');
    at = new Date(at.getTime() + 6 * 3600_000 + 1000);
    expect((await get(path, null)).status).toBe(404);
  });

  it('entitlements say operations: true on an instance that executes runs', async () => {
    const ent = await f.api.get(`${P}/organizations/acme/entitlement-set`, t());
    expect(ent.body.data.attributes.operations).toBe(true);
  });

  it('a reader can read runs but not create, apply or discard them (404); runs: plan queues plans only', async () => {
    const run = await planned();
    const reader = await teamMember(f, 'readers');
    await grantWorkspace(f, reader.teamId, f.web, 'read');
    expect((await f.api.get(`${P}/runs/${run.id}`, { token: reader.token })).status).toBe(200);
    expect((await f.api.post(`${P}/runs`, runBody(f.web), { token: reader.token })).status).toBe(404);
    expect(
      (
        await f.api.post(
          `${P}/workspaces/${f.web}/configuration-versions`,
          { data: { type: 'configuration-versions' } },
          { token: reader.token },
        )
      ).status,
    ).toBe(404);
    for (const action of ['apply', 'discard', 'cancel'])
      expect((await act(run.id, action, reader.token)).status).toBe(404);
    expect(await runStatus(f, run.id)).toBe('planned');

    const planner = await teamMember(f, 'planners');
    await grantWorkspace(f, planner.teamId, f.web, 'custom', { runs: 'plan' });
    expect((await act(run.id, 'apply', planner.token)).status).toBe(404);
    expect(await runStatus(f, run.id)).toBe('planned');
    const queued = await f.api.post(`${P}/runs`, runBody(f.web, { 'plan-only': true }), { token: planner.token });
    expect(queued.status, queued.text).toBe(201);
    // A run that would apply by itself needs permission to apply.
    const auto = await f.api.post(`${P}/runs`, runBody(f.web, { 'auto-apply': true }), { token: planner.token });
    expect(auto.status).toBe(404);
    const destroy = await f.api.post(`${P}/runs`, runBody(f.web, { 'is-destroy': true }), { token: planner.token });
    expect(destroy.status).toBe(404);
    expect((await act(run.id, 'discard', planner.token)).status).toBe(202);
    // In an auto-apply workspace, the planner's run (saying nothing of auto-apply) waits for
    // confirmation; the owner's takes the workspace's setting.
    const patched = await f.api.patch(
      `${P}/workspaces/${f.web}`,
      { data: { type: 'workspaces', attributes: { 'auto-apply': true } } },
      { token: f.owner.token },
    );
    expect(patched.status, patched.text).toBe(200);
    const plannerRun = await f.api.post(`${P}/runs`, runBody(f.web), { token: planner.token });
    expect(plannerRun.status, plannerRun.text).toBe(201);
    expect(plannerRun.body.data.attributes['auto-apply']).toBe(false);
    const ownerRun = await f.api.post(`${P}/runs`, runBody(f.web), { token: f.owner.token });
    expect(ownerRun.status, ownerRun.text).toBe(201);
    expect(ownerRun.body.data.attributes['auto-apply']).toBe(true);
  });

  it('another organization gets 404 for everything of the run', async () => {
    const run = await planned();
    const other = await f.api.userToken('globex-owner');
    expect((await f.api.createOrg('globex', other.token)).status).toBe(201);
    const o = { token: other.token };
    const tail = run.id.replace(/^run-/, '');
    const plan = (await f.api.get(`${P}/plans/plan-${tail}`, t())).body.data;
    for (const path of [
      `${P}/runs/${run.id}`,
      `${P}/runs/${run.id}/run-events`,
      `${P}/plans/plan-${tail}`,
      `${P}/applies/apply-${tail}`,
      `${P}/configuration-versions/${run.relationships['configuration-version'].data.id}`,
      `${P}/workspaces/${f.web}/configuration-versions`,
    ])
      expect((await f.api.get(path, o)).status, path).toBe(404);
    for (const action of ['apply', 'discard', 'cancel', 'force-cancel'])
      expect((await act(run.id, action, other.token)).status, action).toBe(404);
    expect((await f.api.post(`${P}/runs`, runBody(f.web), o)).status).toBe(404);
    // The log URL is its own credential, and opens only its own phase's log.
    const logPath = new URL(plan.attributes['log-read-url']).pathname;
    const applyLog = logPath.replace(`/plan-${tail}/`, `/apply-${tail}/`);
    expect((await f.api.request('GET', applyLog, { token: null })).status).toBe(404);
    expect(await runStatus(f, run.id)).toBe('planned');
  });
});

describe('runs on an instance that does not execute runs', () => {
  let f: AccessFixture;
  beforeEach(async () => {
    f = await accessFixture(await TestApi.create());
  });
  afterEach(() => f.api.close());
  const t = () => ({ token: f.owner.token });
  const NO_BINARY =
    "this berth has no terraform binary: install Terraform on the server's PATH or start berth serve with --terraform-binary";

  /** The run's status, error message, plan status and plan log. */
  const outcome = async (runId: string) => {
    const run = (await f.api.get(`${P}/runs/${runId}`, t())).body.data;
    const plan = (await f.api.get(`${P}/plans/${run.relationships.plan.data.id}`, t())).body.data;
    const u = new URL(plan.attributes['log-read-url']);
    const log = await f.api.request('GET', u.pathname + u.search, { token: null });
    expect(log.status).toBe(200);
    return {
      status: run.attributes.status,
      error: run.attributes['error-message'],
      plan: plan.attributes.status,
      log: log.text,
    };
  };

  it('a run without a configuration version stays a recorded run, moved by reports', async () => {
    const recorded = await f.api.post(`${P}/runs`, runBody(f.web), t());
    expect(recorded.status).toBe(201);
    expect(recorded.body.data.attributes.status).toBe('pending');
    expect(recorded.body.data.relationships['configuration-version']?.data ?? null).toBeNull();
    const report = await f.api.post(
      `${P}/runs/${recorded.body.data.id}/actions/report`,
      { data: { type: 'run-reports', attributes: { status: 'planning' } } },
      t(),
    );
    expect(report.status, report.text).toBe(200);
    expect(await runStatus(f, recorded.body.data.id)).toBe('planning');
  });

  it('a run naming a configuration version is made and ends errored at once, saying what to install', async () => {
    const cv = await newConfiguration(f, f.web);
    const res = await f.api.post(`${P}/runs`, runBody(f.web, { message: 'try' }, cv.id), t());
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.attributes).toMatchObject({ status: 'errored', message: 'try' });
    expect(await outcome(res.body.data.id)).toEqual({
      status: 'errored',
      error: NO_BINARY,
      plan: 'errored',
      log: `\x02${NO_BINARY}\n\x03`,
    });
    // It never queued: the workspace is not locked, and the next run is made the same way.
    expect((await workspaceDoc(f, f.web)).data.attributes.locked).toBe(false);
    const again = await f.api.post(`${P}/runs`, runBody(f.web, {}, cv.id), t());
    expect(again.body.data.attributes.status).toBe('errored');
  });

  it('an upload with auto-queue-runs makes a run that ends errored; without it, none', async () => {
    await newConfiguration(f, f.web, { autoQueueRuns: false });
    expect((await f.api.get(`${P}/workspaces/${f.web}/runs`, t())).body.data).toEqual([]);
    await newConfiguration(f, f.web, { autoQueueRuns: true });
    const runs = (await f.api.get(`${P}/workspaces/${f.web}/runs`, t())).body.data;
    expect(runs).toHaveLength(1);
    expect(await outcome(runs[0].id)).toMatchObject({ status: 'errored', error: NO_BINARY, plan: 'errored' });
    expect((await workspaceDoc(f, f.web)).data.attributes.locked).toBe(false);
  });

  it('the entitlement set says operations: false', async () => {
    const ent = await f.api.get(`${P}/organizations/acme/entitlement-set`, t());
    expect(ent.body.data.attributes.operations).toBe(false);
  });
});

describe('the state version an executed run writes', () => {
  it('names the run (relationships.run); one written otherwise names none', async () => {
    const f = await executingFixture();
    try {
      const t = { token: f.owner.token };
      await newConfiguration(f, f.web);
      const run = await queueRun(f, f.web, { 'auto-apply': true });
      await claim(f, run.id, 'plan');
      await finish(f, run.id, 'plan');
      await claim(f, run.id, 'apply');
      const state = { version: 4, terraform_version: '1.11.4', serial: 1, lineage: 'l-1', outputs: {}, resources: [] };
      await storeRunState(f.api.store.db, run.id, Buffer.from(JSON.stringify(state)), new Date().toISOString());
      await finish(f, run.id, 'apply', { outcome: 'finished', counts: { additions: 1, changes: 0, destructions: 0 } });
      expect(await runStatus(f, run.id)).toBe('applied');
      const current = await f.api.get(`${P}/workspaces/${f.web}/current-state-version`, t);
      expect(current.status, current.text).toBe(200);
      expect(current.body.data.relationships.run.data).toEqual({ type: 'runs', id: run.id });
      const versions = await f.api.get(`${P}/workspaces/${f.web}/state-versions`, t);
      expect(versions.body.data.map((v: any) => v.relationships.run.data?.id ?? null)).toEqual([run.id]);
    } finally {
      await f.api.close();
    }
  });
});

describe('recorded runs on an instance that executes runs', () => {
  let f: AccessFixture;
  beforeEach(async () => {
    f = await executingFixture();
  });
  afterEach(() => f.api.close());
  const t = () => ({ token: f.owner.token });

  it('POST /runs with recorded: true makes a recorded run even though the workspace has a configuration', async () => {
    await newConfiguration(f, f.web);
    const res = await f.api.post(`${P}/runs`, runBody(f.web, { recorded: true, message: 'imported' }), t());
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.attributes.status).toBe('pending');
    expect(res.body.data.relationships['configuration-version']?.data ?? null).toBeNull();
    const report = await f.api.post(
      `${P}/runs/${res.body.data.id}/actions/report`,
      { data: { type: 'run-reports', attributes: { status: 'planning' } } },
      t(),
    );
    expect(report.status, report.text).toBe(200);
    // No executor claims it.
    expect(await claimRun(f.api.store.db, 'test-executor', new Date().toISOString())).toBeNull();
  });

  it('recorded: true with a configuration version is a 422, and makes nothing', async () => {
    const cv = await newConfiguration(f, f.web);
    const res = await f.api.post(`${P}/runs`, runBody(f.web, { recorded: true }, cv.id), t());
    expect(res.status).toBe(422);
    expect(res.body.errors[0].source.pointer).toBe('/data/relationships/configuration-version/data/id');
    expect((await f.api.get(`${P}/workspaces/${f.web}/runs`, t())).body.data).toEqual([]);
  });
});

describe('two executors on one database', () => {
  let shared: { location: string; cleanup: () => Promise<void> };
  let stores: Store[] = [];
  afterEach(async () => {
    for (const s of stores) await s.close();
    stores = [];
    await shared?.cleanup();
  });

  it('claim each queued phase exactly once (a conditional update on the status they read)', async () => {
    shared = await sharedDatabase();
    stores = [await openStore(shared.location), await openStore(shared.location)];
    const f = await accessFixture(await TestApi.on(stores[0], { settings: EXECUTING }));
    await newConfiguration(f, f.web);
    const queued: string[] = [];
    for (let i = 0; i < 12; i++) queued.push((await queueRun(f, f.web, { 'plan-only': true })).id);
    // Both executors claim as fast as they can, at the same time, until nothing is left.
    const claimer = async (store: Store, name: string) => {
      const mine: string[] = [];
      for (;;) {
        const c = await claimRun(store.db, name, new Date().toISOString());
        if (!c) return mine;
        mine.push(c.runId);
      }
    };
    const [a, b] = await Promise.all([claimer(stores[0], 'a'), claimer(stores[1], 'b')]);
    expect([...a, ...b].sort()).toEqual([...queued].sort());
    const rows = await stores[1].db
      .selectFrom('runs')
      .select(['id', 'status', 'claimed_by'])
      .where('id', 'in', queued)
      .execute();
    for (const r of rows) {
      expect(r.status).toBe('planning');
      expect(r.claimed_by).toBe(a.includes(r.id) ? 'a' : 'b');
    }
    // Exactly one STX per claimed plan: no phase was started twice.
    const starts = await stores[1].db
      .selectFrom('run_logs')
      .select('run_id')
      .where('run_id', 'in', queued)
      .where('phase', '=', 'plan')
      .execute();
    expect(starts.map((s) => s.run_id).sort()).toEqual([...queued].sort());
  });
});
