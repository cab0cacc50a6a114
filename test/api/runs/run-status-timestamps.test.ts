import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimRun } from '../../../src/services/runs/run-claim.js';
import { finishPhase } from '../../../src/services/runs/run-phases.js';
import { accessFixture, type AccessFixture } from '../../helpers/access.js';
import { TestApi } from '../../helpers/api.js';
import { TestClock } from '../../helpers/clock.js';
import { EXECUTING, newConfiguration, P, PLANNED_CHANGES, queueRun } from '../../helpers/run-execution.js';

/**
 * A run's `status-timestamps`, as HCP Terraform answers them (go-tfe's RunStatusTimestamps): a new
 * run has `plan-queueable-at` (its creation), and every status it goes through adds its
 * `<status>-at`, at the time of that move. The clock moves a second between moves, so each key's
 * time says which move stamped it.
 */
describe('run status timestamps', () => {
  let f: AccessFixture;
  let clock: TestClock;
  beforeEach(async () => {
    clock = new TestClock();
    f = await accessFixture(await TestApi.create({ settings: EXECUTING, clock }));
    await newConfiguration(f, f.web);
  });
  afterEach(() => f.api.close());
  const t = () => ({ token: f.owner.token });
  const at = () => clock.now().toISOString();
  const tick = () => {
    clock.advance(1000);
    return at();
  };
  const stamps = async (id: string) =>
    (await f.api.get(`${P}/runs/${id}`, t())).body.data.attributes['status-timestamps'] as Record<string, string>;

  it('an executed run: plan-queueable-at at its creation, then one key per status, each at its move', async () => {
    const created = at();
    // Behind another run, the new run stays pending: only its creation is stamped.
    const first = await queueRun(f, f.web);
    const run = await queueRun(f, f.web);
    expect(run.attributes.status).toBe('pending');
    expect(run.attributes['status-timestamps']).toEqual({ 'plan-queueable-at': created });
    expect(first.attributes['status-timestamps']).toEqual({ 'plan-queueable-at': created, 'plan-queued-at': created });

    // The first ends (canceled before it planned): the run takes the workspace.
    const queued = tick();
    expect((await f.api.post(`${P}/runs/${first.id}/actions/cancel`, undefined, t())).status).toBe(202);
    expect(await stamps(run.id)).toEqual({ 'plan-queueable-at': created, 'plan-queued-at': queued });

    const planning = tick();
    expect((await claimRun(f.api.store.db, 'test-executor', planning))?.runId).toBe(run.id);
    const planned = tick();
    await finishPhase(f.api.store.db, run.id, 'plan', PLANNED_CHANGES, planned);
    const confirmed = tick();
    expect((await f.api.post(`${P}/runs/${run.id}/actions/apply`, undefined, t())).status).toBe(202);
    const applying = tick();
    expect((await claimRun(f.api.store.db, 'test-executor', applying))?.runId).toBe(run.id);
    const applied = tick();
    await finishPhase(f.api.store.db, run.id, 'apply', PLANNED_CHANGES, applied);

    expect(await stamps(run.id)).toEqual({
      'plan-queueable-at': created,
      'plan-queued-at': queued,
      'planning-at': planning,
      'planned-at': planned,
      'confirmed-at': confirmed,
      'apply-queued-at': confirmed,
      'applying-at': applying,
      'applied-at': applied,
    });
    // The first run: canceled while it waited to plan.
    expect(await stamps(first.id)).toEqual({
      'plan-queueable-at': created,
      'plan-queued-at': created,
      'canceled-at': queued,
    });
  });

  it('a plan-only run: plan-queueable-at and plan-queued-at at its creation, then its plan', async () => {
    const created = at();
    const run = await queueRun(f, f.web, { 'plan-only': true });
    expect(run.attributes['status-timestamps']).toEqual({ 'plan-queueable-at': created, 'plan-queued-at': created });
    const planning = tick();
    await claimRun(f.api.store.db, 'test-executor', planning);
    const finished = tick();
    await finishPhase(f.api.store.db, run.id, 'plan', PLANNED_CHANGES, finished);
    expect(await stamps(run.id)).toMatchObject({
      'plan-queueable-at': created,
      'plan-queued-at': created,
      'planning-at': planning,
      'planned-and-finished-at': finished,
    });
  });

  it('a recorded run: plan-queueable-at at its creation, and the time of every status it is reported in', async () => {
    const created = at();
    const res = await f.api.post(
      `${P}/runs`,
      {
        data: {
          type: 'runs',
          attributes: { recorded: true },
          relationships: { workspace: { data: { type: 'workspaces', id: f.web } } },
        },
      },
      t(),
    );
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.attributes['status-timestamps']).toEqual({ 'plan-queueable-at': created });
    const id = res.body.data.id;
    const report = (attributes: Record<string, unknown>) =>
      f.api.post(`${P}/runs/${id}/actions/report`, { data: { type: 'run-reports', attributes } }, t());
    const times = ['2030-01-15T12:00:10.000Z', '2030-01-15T12:00:20.000Z', '2030-01-15T12:00:30.000Z'];
    const moved = await report({
      phases: [
        { status: 'plan_queued', at: times[0] },
        { status: 'planning', at: times[1] },
        { status: 'planned', at: times[2] },
        { status: 'confirmed', at: '2030-01-15T12:00:40.000Z' },
        { status: 'apply_queued', at: '2030-01-15T12:00:50.000Z' },
        { status: 'applying', at: '2030-01-15T12:01:00.000Z' },
      ],
      status: 'applied',
      at: '2030-01-15T12:01:10.000Z',
    });
    expect(moved.status, moved.text).toBe(200);
    expect(await stamps(id)).toEqual({
      'plan-queueable-at': created,
      'plan-queued-at': times[0],
      'planning-at': times[1],
      'planned-at': times[2],
      'confirmed-at': '2030-01-15T12:00:40.000Z',
      'apply-queued-at': '2030-01-15T12:00:50.000Z',
      'applying-at': '2030-01-15T12:01:00.000Z',
      'applied-at': '2030-01-15T12:01:10.000Z',
    });
  });

  it('canceled-at: null until the run is canceled, then the time of its cancel', async () => {
    await queueRun(f, f.web);
    const run = await queueRun(f, f.web);
    expect(run.attributes['canceled-at']).toBeNull();
    const canceled = tick();
    expect((await f.api.post(`${P}/runs/${run.id}/actions/cancel`, undefined, t())).status).toBe(202);
    expect((await f.api.get(`${P}/runs/${run.id}`, t())).body.data.attributes['canceled-at']).toBe(canceled);
  });
});
