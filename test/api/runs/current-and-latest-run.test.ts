import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimRun } from '../../../src/services/runs/run-claim.js';
import type { AccessFixture } from '../../helpers/access.js';
import {
  claim,
  executingFixture,
  finish,
  newConfiguration,
  now,
  P,
  queueRun,
  runStatus,
  workspaceDoc,
} from '../../helpers/run-execution.js';

/**
 * A workspace's `current-run` and `latest-run`, as HCP Terraform has them. A lock someone holds
 * stops every run, plan-only ones too ("New runs remain in the pending state until the workspace
 * is unlocked"), and the oldest run waiting for it is the current run: the Terraform CLI reads the
 * current run of a locked workspace and, only when it is pending, says "Waiting for the manually
 * locked workspace to be unlocked...". `latest-run` is the newest run. Behind an active run, a new
 * run is the latest, not the current one.
 */
describe('current-run and latest-run', () => {
  let f: AccessFixture;
  beforeEach(async () => {
    f = await executingFixture();
    await newConfiguration(f, f.web);
  });
  afterEach(() => f.api.close());
  const t = () => ({ token: f.owner.token });
  const runsOf = async () => {
    const rel = (await workspaceDoc(f, f.web)).data.relationships;
    return { current: rel['current-run'].data?.id ?? null, latest: rel['latest-run'].data?.id ?? null };
  };
  const lock = async () =>
    expect((await f.api.post(`${P}/workspaces/${f.web}/actions/lock`, {}, t())).status).toBe(200);
  const unlock = async () =>
    expect((await f.api.post(`${P}/workspaces/${f.web}/actions/unlock`, {}, t())).status).toBe(200);

  it('a run waiting for a person’s lock is the current and the latest run; the next waits behind it', async () => {
    await lock();
    const run = await queueRun(f, f.web);
    expect(run.attributes.status).toBe('pending');
    expect(await runsOf()).toEqual({ current: run.id, latest: run.id });
    const link = (await workspaceDoc(f, f.web)).data.relationships['latest-run'];
    expect(link).toEqual({ data: { type: 'runs', id: run.id }, links: { related: `/api/v2/runs/${run.id}` } });

    const next = await queueRun(f, f.web);
    expect(await runsOf()).toEqual({ current: run.id, latest: next.id });
    // The current one canceled while the lock is held: the next waiting run is current.
    expect((await f.api.post(`${P}/runs/${run.id}/actions/cancel`, undefined, t())).status).toBe(202);
    expect(await runsOf()).toEqual({ current: next.id, latest: next.id });

    // Unlocked: it takes the workspace and plans.
    await unlock();
    await claim(f, next.id, 'plan');
    expect(await runsOf()).toEqual({ current: next.id, latest: next.id });
  });

  it('a plan-only run waits pending for a person’s lock, as the current run, and plans once it is released', async () => {
    const applied = await queueRun(f, f.web);
    await claim(f, applied.id, 'plan');
    await finish(f, applied.id, 'plan');
    expect((await f.api.post(`${P}/runs/${applied.id}/actions/apply`, undefined, t())).status).toBe(202);
    await claim(f, applied.id, 'apply');
    await finish(f, applied.id, 'apply');
    expect(await runStatus(f, applied.id)).toBe('applied');

    await lock();
    const plan = await queueRun(f, f.web, { 'plan-only': true });
    expect(plan.attributes.status).toBe('pending');
    expect(await runsOf()).toEqual({ current: plan.id, latest: plan.id });
    // Nothing claims it while the lock is held.
    expect(await claimRun(f.api.store.db, 'test-executor', now())).toBeNull();
    expect(await runStatus(f, plan.id)).toBe('pending');

    await unlock();
    await claim(f, plan.id, 'plan');
    await finish(f, plan.id, 'plan');
    expect(await runStatus(f, plan.id)).toBe('planned_and_finished');
    // A plan-only run takes no lock: the workspace stays free.
    expect((await workspaceDoc(f, f.web)).data.attributes.locked).toBe(false);
  });

  it('a plan-only run on a workspace held by a run plans at once: it is the latest run, the holder stays current', async () => {
    const holder = await queueRun(f, f.web);
    const plan = await queueRun(f, f.web, { 'plan-only': true });
    expect(plan.attributes.status).toBe('plan_queued');
    expect(await runsOf()).toEqual({ current: holder.id, latest: plan.id });
  });

  it('behind an active run, a new run is the latest but not the current one', async () => {
    const active = await queueRun(f, f.web);
    expect(await runsOf()).toEqual({ current: active.id, latest: active.id });
    const waiting = await queueRun(f, f.web);
    expect(waiting.attributes.status).toBe('pending');
    expect(await runsOf()).toEqual({ current: active.id, latest: waiting.id });
  });
});
