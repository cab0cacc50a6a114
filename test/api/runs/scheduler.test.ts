import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Scheduler, type SchedulerOptions } from '../../../src/scheduler/scheduler.js';
import { queueDueAutoDestroys } from '../../../src/services/runs/auto-destroy.js';
import { finishPhase, storeRunState } from '../../../src/services/runs/run-phases.js';
import { claimRun } from '../../../src/services/runs/run-claim.js';
import { accessFixture, type AccessFixture } from '../../helpers/access.js';
import { TestApi } from '../../helpers/api.js';
import { TestClock } from '../../helpers/clock.js';
import { EXECUTING, newConfiguration, P, queueRun, runStatus, workspaceDoc } from '../../helpers/run-execution.js';

/**
 * The scheduler of serve (src/scheduler/), driven tick by tick on the test's clock: one instance
 * of several acts (the lease), a due time is handled once (auto-destroy, assessments), a restart
 * takes over where the last one stopped. The executor's side (claim, finishPhase) is called on
 * the services, as in run-recovery.test.ts.
 */

const MINUTE = 60_000;
const STATE = (serial: number, resources: number) =>
  Buffer.from(
    JSON.stringify({
      version: 4,
      terraform_version: '1.11.4',
      serial,
      lineage: 'scheduler-test',
      outputs: {},
      resources: Array.from({ length: resources }, (_, i) => ({
        mode: 'managed',
        type: 'terraform_data',
        name: `r${i}`,
        provider: 'provider["terraform.io/builtin/terraform"]',
        instances: [{ schema_version: 0, attributes: { id: `id-${i}` } }],
      })),
    }),
  );

describe('the scheduler', () => {
  let f: AccessFixture;
  const clock = new TestClock();
  const lines: string[] = [];
  const db = () => f.api.store.db;
  const at = () => clock.now().toISOString();
  const scheduler = (holder: string, extra: Partial<SchedulerOptions> = {}) =>
    new Scheduler({
      db: db(),
      clock,
      holder,
      intervalMs: MINUTE,
      leaseMs: 3 * MINUTE,
      edition: 'self-hosted',
      assessmentIntervalMs: 24 * 60 * MINUTE,
      log: (l) => lines.push(l),
      ...extra,
    });
  const patchWs = (attributes: Record<string, unknown>) =>
    f.api.patch(`${P}/workspaces/${f.web}`, { data: { type: 'workspaces', attributes } }, { token: f.owner.token });
  /** Applies a run whose apply writes a state of `resources` resources (the executor's side, by hand). */
  const applyRun = async (serial: number, resources: number) => {
    const run = await queueRun(f, f.web, { 'auto-apply': true });
    expect((await claimRun(db(), 'x', at()))?.runId).toBe(run.id);
    await finishPhase(db(), run.id, 'plan', { outcome: 'finished', hasChanges: true }, at());
    expect((await claimRun(db(), 'x', at()))?.phase).toBe('apply');
    await storeRunState(db(), run.id, STATE(serial, resources), at());
    await finishPhase(db(), run.id, 'apply', { outcome: 'finished' }, at());
    expect(await runStatus(f, run.id)).toBe('applied');
  };
  const runsOf = async () =>
    (await db().selectFrom('runs').selectAll().where('workspace_id', '=', f.web).orderBy('seq').execute()).filter(
      (r) => r.configuration_version_id !== null,
    );
  const audit = async () =>
    (await f.api.get(`${P}/organizations/acme/audit-trail`, { token: f.owner.token })).body.data.map(
      (e: any) => e.attributes,
    );

  beforeEach(async () => {
    clock.set(Date.parse('2030-01-15T12:00:00.000Z'));
    lines.length = 0;
    f = await accessFixture(await TestApi.create({ settings: EXECUTING, clock }));
    await newConfiguration(f, f.web);
  });
  afterEach(() => f.api.close());

  it('elects one leader among two schedulers on one store; the destroy run is queued once, auto-applied, audited', async () => {
    await applyRun(1, 2);
    const due = new Date(clock.now().getTime() + 5 * MINUTE).toISOString();
    expect((await patchWs({ 'auto-destroy-at': due })).status).toBe(200);
    const a = scheduler('instance-a');
    const b = scheduler('instance-b');
    expect((await a.tick()).leader).toBe(true);
    expect((await b.tick()).leader).toBe(false);
    const before = (await runsOf()).length;

    // Not yet due: nothing.
    clock.advance(4 * MINUTE);
    expect((await a.tick()).autoDestroys).toEqual([]);
    expect((await runsOf()).length).toBe(before);

    clock.advance(MINUTE);
    const [tickA, tickB] = [await a.tick(), await b.tick()];
    expect(tickB).toEqual({ leader: false, autoDestroys: [], assessments: [] });
    expect(tickA.autoDestroys).toHaveLength(1);
    expect(tickA.autoDestroys[0]).toMatchObject({ workspaceId: f.web, dueAt: due, outcome: 'queued' });
    const runs = await runsOf();
    expect(runs.length).toBe(before + 1);
    const destroy = runs.at(-1)!;
    expect(destroy.id).toBe(tickA.autoDestroys[0].runId);
    const doc = (await f.api.get(`${P}/runs/${destroy.id}`, { token: f.owner.token })).body.data;
    expect(doc.attributes['is-destroy']).toBe(true);
    expect(doc.attributes['auto-apply']).toBe(true);
    expect(doc.attributes.message).toContain('auto-destroy');
    expect(doc.attributes.status).toBe('plan_queued');
    // It is the workspace's current run and holds its lock, as any run that applies.
    const ws = (await workspaceDoc(f, f.web)).data;
    expect(ws.attributes['auto-destroy-at']).toBeNull();
    expect(ws.relationships['current-run'].data.id).toBe(destroy.id);
    const record = (await audit()).find((e: any) => e.action === 'run.auto-destroy');
    expect(record).toMatchObject({ 'actor-kind': 'berth', 'target-id': destroy.id, 'workspace-id': f.web });

    // Later ticks, of either instance, queue nothing more.
    clock.advance(MINUTE);
    expect((await a.tick()).autoDestroys).toEqual([]);
    expect((await b.tick()).leader).toBe(false);
    expect((await runsOf()).length).toBe(before + 1);
  });

  it('two instances that both think they lead (clocks apart) still queue a due time once', async () => {
    await applyRun(1, 1);
    expect((await patchWs({ 'auto-destroy-at': at() })).status).toBe(200);
    const results = await Promise.all([
      queueDueAutoDestroys(db(), clock.now()),
      queueDueAutoDestroys(db(), clock.now()),
    ]);
    expect(results.flat()).toHaveLength(1);
    expect((await runsOf()).filter((r) => r.is_destroy === 1)).toHaveLength(1);
  });

  it('a restart: a stopped leader lets go at once, a crashed one when its lease expires; nothing is queued twice', async () => {
    await applyRun(1, 1);
    const a = scheduler('instance-a');
    expect((await a.tick()).leader).toBe(true);
    await a.stop();
    const b = scheduler('instance-b');
    expect((await b.tick()).leader).toBe(true);
    expect((await patchWs({ 'auto-destroy-at': at() })).status).toBe(200);
    expect((await b.tick()).autoDestroys).toHaveLength(1);
    // b crashes (no stop): c waits out b's lease, then leads, and the handled due time stays handled.
    const c = scheduler('instance-c');
    expect((await c.tick()).leader).toBe(false);
    clock.advance(3 * MINUTE - 1);
    expect((await c.tick()).leader).toBe(false);
    clock.advance(1);
    const tick = await c.tick();
    expect(tick).toEqual({ leader: true, autoDestroys: [], assessments: [] });
    expect((await runsOf()).filter((r) => r.is_destroy === 1)).toHaveLength(1);
  });

  it('an activity duration: due after the last state change; a workspace with nothing left is not destroyed again', async () => {
    await applyRun(1, 1);
    expect((await patchWs({ 'auto-destroy-activity-duration': '1h' })).status).toBe(200);
    const shown = (await workspaceDoc(f, f.web)).data.attributes['auto-destroy-at'];
    expect(shown).toBe(new Date(clock.now().getTime() + 60 * MINUTE).toISOString());
    const a = scheduler('instance-a');
    clock.advance(59 * MINUTE);
    expect((await a.tick()).autoDestroys).toEqual([]);
    // Activity (a new state version) moves the time on.
    await applyRun(2, 1);
    clock.advance(59 * MINUTE);
    expect((await a.tick()).autoDestroys).toEqual([]);
    clock.advance(MINUTE);
    const [queued] = (await a.tick()).autoDestroys;
    expect(queued).toMatchObject({ outcome: 'queued' });
    // The destroy run applies and leaves an empty state: a new activity, an hour later nothing to destroy.
    expect((await claimRun(db(), 'x', at()))?.runId).toBe(queued.runId);
    await finishPhase(db(), queued.runId!, 'plan', { outcome: 'finished', hasChanges: true }, at());
    await claimRun(db(), 'x', at());
    await storeRunState(db(), queued.runId!, STATE(3, 0), at());
    await finishPhase(db(), queued.runId!, 'apply', { outcome: 'finished' }, at());
    clock.advance(60 * MINUTE);
    expect((await a.tick()).autoDestroys).toMatchObject([{ outcome: 'no-resources', runId: null }]);
    expect((await audit()).some((e: any) => e.action === 'workspace.auto-destroy-skipped')).toBe(true);
    clock.advance(MINUTE);
    expect((await a.tick()).autoDestroys).toEqual([]);
    expect((await runsOf()).filter((r) => r.is_destroy === 1)).toHaveLength(1);
  });

  it('a workspace without an uploaded configuration gets no destroy run; its auto-destroy-at is cleared and audited', async () => {
    const other = await f.api.post(
      `${P}/organizations/acme/workspaces`,
      { data: { type: 'workspaces', attributes: { name: 'bare', 'auto-destroy-at': at() } } },
      { token: f.owner.token },
    );
    expect(other.status, other.text).toBe(201);
    const tick = await scheduler('a').tick();
    expect(tick.autoDestroys).toMatchObject([{ workspaceId: other.body.data.id, outcome: 'no-configuration' }]);
    const ws = await f.api.get(`${P}/workspaces/${other.body.data.id}`, { token: f.owner.token });
    expect(ws.body.data.attributes['auto-destroy-at']).toBeNull();
  });

  it('a workspace in local execution mode gets no destroy run (nothing would execute it); its time is cleared', async () => {
    await applyRun(1, 1);
    expect((await patchWs({ 'execution-mode': 'local', 'auto-destroy-at': at() })).status).toBe(200);
    const before = (await runsOf()).length;
    const tick = await scheduler('a').tick();
    expect(tick.autoDestroys).toMatchObject([{ workspaceId: f.web, outcome: 'local-execution', runId: null }]);
    expect((await runsOf()).length).toBe(before);
    const ws = (await workspaceDoc(f, f.web)).data;
    expect(ws.attributes.locked).toBe(false);
    expect(ws.attributes['auto-destroy-at']).toBeNull();
    expect((await audit()).map((e: any) => e.action)).toContain('workspace.auto-destroy-skipped');
  });
});

describe('health assessments (hosted edition)', () => {
  let f: AccessFixture;
  const clock = new TestClock();
  const db = () => f.api.store.db;
  const at = () => clock.now().toISOString();
  const DAY = 24 * 60 * MINUTE;
  const scheduler = () =>
    new Scheduler({ db: db(), clock, holder: 'h', edition: 'hosted', assessmentIntervalMs: DAY, log: () => {} });

  beforeEach(async () => {
    clock.set(Date.parse('2030-01-15T12:00:00.000Z'));
    f = await accessFixture(await TestApi.create({ settings: { ...EXECUTING, edition: 'hosted' }, clock }));
    await newConfiguration(f, f.web);
    const run = await queueRun(f, f.web, { 'auto-apply': true });
    await claimRun(db(), 'x', at());
    await finishPhase(db(), run.id, 'plan', { outcome: 'finished', hasChanges: true }, at());
    await claimRun(db(), 'x', at());
    await storeRunState(db(), run.id, STATE(1, 1), at());
    await finishPhase(db(), run.id, 'apply', { outcome: 'finished' }, at());
  });
  afterEach(() => f.api.close());

  it('queues one refresh-only plan-only run that holds no lock; its drift becomes the current assessment result', async () => {
    const s = scheduler();
    // Off: nothing.
    expect((await s.tick()).assessments).toEqual([]);
    const patched = await f.api.patch(
      `${P}/workspaces/${f.web}`,
      { data: { type: 'workspaces', attributes: { 'assessments-enabled': true } } },
      { token: f.owner.token },
    );
    expect(patched.status, patched.text).toBe(200);
    const [runId] = (await s.tick()).assessments;
    expect(runId).toMatch(/^run-/);
    // One at a time.
    expect((await s.tick()).assessments).toEqual([]);
    const run = (await f.api.get(`${P}/runs/${runId}`, { token: f.owner.token })).body.data;
    expect(run.attributes).toMatchObject({ 'refresh-only': true, 'plan-only': true, status: 'plan_queued' });
    const ws = (await workspaceDoc(f, f.web)).data;
    expect(ws.attributes.locked).toBe(false);
    expect(ws.relationships['current-run'].data.id).not.toBe(runId);
    expect(ws.relationships['current-assessment-result'].data).toBeNull();

    const claimed = await claimRun(db(), 'x', at());
    expect(claimed).toMatchObject({ runId, refreshOnly: true, planOnly: true });
    await finishPhase(db(), runId, 'plan', { outcome: 'finished', hasChanges: true }, at());
    const rel = (await workspaceDoc(f, f.web)).data.relationships['current-assessment-result'];
    expect(rel.data.type).toBe('assessment-results');
    const result = await f.api.get(`${P}/assessment-results/${rel.data.id}`, { token: f.owner.token });
    expect(result.status).toBe(200);
    expect(result.body.data.attributes).toEqual({
      drifted: true,
      succeeded: true,
      'error-msg': null,
      'created-at': at(),
    });
    const current = await f.api.get(`${P}/workspaces/${f.web}/current-assessment-result`, { token: f.owner.token });
    expect(current.body.data.id).toBe(rel.data.id);
    const log = await f.api.get(`${P}/assessment-results/${rel.data.id}/log-output`, { token: f.owner.token });
    expect(log.status).toBe(200);

    // The next one comes a day later, and never while a user's run is unfinished.
    clock.advance(DAY - 1);
    expect((await s.tick()).assessments).toEqual([]);
    clock.advance(1);
    const userRun = await queueRun(f, f.web);
    expect((await s.tick()).assessments).toEqual([]);
    await f.api.post(`${P}/runs/${userRun.id}/actions/discard`, {}, { token: f.owner.token });
    await claimRun(db(), 'x', at());
    await finishPhase(db(), userRun.id, 'plan', { outcome: 'finished', hasChanges: false }, at());
    expect(await runStatus(f, userRun.id)).toBe('planned_and_finished');
    const [second] = (await s.tick()).assessments;
    expect(second).toMatch(/^run-/);
    await claimRun(db(), 'x', at());
    await finishPhase(db(), second, 'plan', { outcome: 'finished', hasChanges: false }, at());
    const now = (await f.api.get(`${P}/workspaces/${f.web}/current-assessment-result`, { token: f.owner.token })).body
      .data;
    expect(now.attributes).toMatchObject({ drifted: false, succeeded: true });

    // Deleting the workspace takes its results and scheduled times along.
    const deleted = await f.api.delete(`${P}/workspaces/${f.web}`, { token: f.owner.token });
    expect(deleted.status, deleted.text).toBe(204);
    expect(await db().selectFrom('assessment_results').select('id').execute()).toEqual([]);
    expect(await db().selectFrom('scheduled_runs').select('seq').execute()).toEqual([]);
  });

  it('a failed assessment says so; results are 404 to strangers and on the self-hosted edition', async () => {
    const stranger = await f.api.userToken('stranger');
    const res = await f.api.get(`${P}/workspaces/${f.web}/current-assessment-result`, { token: stranger.token });
    expect(res.status).toBe(404);
    const missing = await f.api.get(`${P}/assessment-results/asmtres-AAAAAAAAAAAAAAAA`, { token: f.owner.token });
    expect(missing.status).toBe(404);
    // An assessment exists; a stranger still gets 404 for it.
    await f.api.patch(
      `${P}/workspaces/${f.web}`,
      { data: { type: 'workspaces', attributes: { 'assessments-enabled': true } } },
      { token: f.owner.token },
    );
    const [runId] = (await scheduler().tick()).assessments;
    await claimRun(db(), 'x', at());
    await finishPhase(db(), runId, 'plan', { outcome: 'errored', errorMessage: 'boom' }, at());
    const id = (await workspaceDoc(f, f.web)).data.relationships['current-assessment-result'].data.id;
    const failed = await f.api.get(`${P}/assessment-results/${id}`, { token: f.owner.token });
    expect(failed.body.data.attributes).toMatchObject({ drifted: null, succeeded: false, 'error-msg': 'boom' });
    expect((await f.api.get(`${P}/assessment-results/${id}`, { token: stranger.token })).status).toBe(404);

    // The self-hosted edition has no assessments: its scheduler queues none, its routes are 404s.
    const selfHosted = await accessFixture(await TestApi.create({ settings: EXECUTING, clock }));
    try {
      await newConfiguration(selfHosted, selfHosted.web);
      const s = new Scheduler({
        db: selfHosted.api.store.db,
        clock,
        edition: 'self-hosted',
        assessmentIntervalMs: DAY,
        log: () => {},
      });
      expect((await s.tick()).assessments).toEqual([]);
      const res = await selfHosted.api.get(`${P}/workspaces/${selfHosted.web}/current-assessment-result`, {
        token: selfHosted.owner.token,
      });
      expect(res.status).toBe(404);
    } finally {
      await selfHosted.api.close();
    }
  });
});
