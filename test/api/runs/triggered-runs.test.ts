import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { AccessFixture } from '../../helpers/access.js';
import { createWorkspace } from '../../helpers/workspaces.js';
import {
  claim,
  executingFixture,
  finish,
  newConfiguration,
  P,
  PLANNED_CHANGES,
  queueRun,
  runStatus,
} from '../../helpers/run-execution.js';

/**
 * What a run trigger does: an applied run of the source queues a run in each workspace it
 * triggers, in the transaction that records the apply (source `tfe-run-trigger`, its message
 * naming the run), which applies by itself only with the target's auto-apply-run-trigger. The
 * executor's side is driven directly (claim, finishPhase), so every step is immediate.
 */
describe('runs queued by run triggers', () => {
  let f: AccessFixture;
  let target: string;
  const t = () => ({ token: f.owner.token });

  beforeEach(async () => {
    f = await executingFixture();
    target = (await createWorkspace(f.api, 'acme', { name: 'app' }, undefined, f.owner.token)).body.data.id;
    await newConfiguration(f, f.web);
    const added = await f.api.post(
      `${P}/workspaces/${target}/run-triggers`,
      { data: { relationships: { sourceable: { data: { type: 'workspaces', id: f.web } } } } },
      t(),
    );
    expect(added.status, added.text).toBe(201);
  });
  afterEach(() => f.api.close());

  const runsOf = async (ws: string) => {
    const res = await f.api.get(`${P}/workspaces/${ws}/runs`, t());
    expect(res.status, res.text).toBe(200);
    return res.body.data as any[];
  };
  /** A run of the source (`web`) through its apply, ending with `apply` (a finished apply by default). */
  const applySource = async (apply = PLANNED_CHANGES) => {
    const run = await queueRun(f, f.web, { 'auto-apply': true });
    await claim(f, run.id, 'plan');
    await finish(f, run.id, 'plan');
    await claim(f, run.id, 'apply');
    await finish(f, run.id, 'apply', apply);
    return run.id as string;
  };
  const setTarget = (attributes: Record<string, unknown>) =>
    f.api.patch(`${P}/workspaces/${target}`, { data: { type: 'workspaces', attributes } }, t());

  it('an applied run queues a run in the target, which waits for confirmation by default', async () => {
    await newConfiguration(f, target);
    const sourceRun = await applySource();
    expect(await runStatus(f, sourceRun)).toBe('applied');
    const [run] = await runsOf(target);
    expect(run.attributes).toMatchObject({
      source: 'tfe-run-trigger',
      message: `Triggered by run ${sourceRun} of workspace acme/web`,
      status: 'plan_queued',
      'auto-apply': false,
      'is-destroy': false,
      'plan-only': false,
    });
    // It plans the target's current configuration version.
    const ws = (await f.api.get(`${P}/workspaces/${target}`, t())).body.data;
    expect(run.relationships['configuration-version'].data.id).toBe(
      ws.relationships['current-configuration-version'].data.id,
    );
    await claim(f, run.id, 'plan');
    await finish(f, run.id, 'plan');
    expect(await runStatus(f, run.id)).toBe('planned');
    // berth queued it: the audit trail says so, with no token.
    const events = await f.api.store.db
      .selectFrom('audit_events')
      .selectAll()
      .where('action', '=', 'run.run-trigger')
      .execute();
    expect(events.map((e) => [e.actor_kind, e.actor_token_id, e.target_id])).toEqual([['berth', null, run.id]]);
  });

  it('with auto-apply-run-trigger the target run applies by itself, and triggers the next workspace in turn', async () => {
    await newConfiguration(f, target);
    expect((await setTarget({ 'auto-apply-run-trigger': true })).status).toBe(200);
    const last = (await createWorkspace(f.api, 'acme', { name: 'last' }, undefined, f.owner.token)).body.data.id;
    await newConfiguration(f, last);
    await f.api.post(
      `${P}/workspaces/${last}/run-triggers`,
      { data: { relationships: { sourceable: { data: { type: 'workspaces', id: target } } } } },
      t(),
    );
    await applySource();
    const [run] = await runsOf(target);
    expect(run.attributes['auto-apply']).toBe(true);
    await claim(f, run.id, 'plan');
    await finish(f, run.id, 'plan');
    expect(await runStatus(f, run.id)).toBe('apply_queued');
    await claim(f, run.id, 'apply');
    await finish(f, run.id, 'apply');
    expect(await runStatus(f, run.id)).toBe('applied');
    const [next] = await runsOf(last);
    expect(next.attributes).toMatchObject({
      source: 'tfe-run-trigger',
      message: `Triggered by run ${run.id} of workspace acme/app`,
      'auto-apply': false,
    });
  });

  it('nothing is queued for a run that did not apply, nor in a target without a configuration or executing locally', async () => {
    // No configuration version in the target yet: skipped.
    await applySource();
    expect(await runsOf(target)).toEqual([]);
    // A plan without changes ends planned_and_finished: no apply, no trigger.
    await newConfiguration(f, target);
    const unchanged = await queueRun(f, f.web, { 'auto-apply': true });
    await claim(f, unchanged.id, 'plan');
    await finish(f, unchanged.id, 'plan', { outcome: 'finished', hasChanges: false });
    expect(await runStatus(f, unchanged.id)).toBe('planned_and_finished');
    // An apply that failed.
    const failed = await applySource({ outcome: 'errored', errorMessage: 'boom' });
    expect(await runStatus(f, failed)).toBe('errored');
    expect(await runsOf(target)).toEqual([]);
    // A target in local execution mode: its runs execute in the Terraform CLI.
    expect((await setTarget({ 'execution-mode': 'local' })).status).toBe(200);
    await applySource();
    expect(await runsOf(target)).toEqual([]);
  });

  it('queues behind a run the target already has, and a deleted trigger fires no more', async () => {
    await newConfiguration(f, target);
    // The target's own run waits for confirmation, holding the workspace.
    const own = await queueRun(f, target);
    await claim(f, own.id, 'plan');
    await finish(f, own.id, 'plan');
    await applySource();
    const status = async () => (await runsOf(target)).map((r) => [r.id === own.id, r.attributes.status]);
    expect(await status()).toEqual([
      [false, 'pending'],
      [true, 'planned'],
    ]);
    expect((await f.api.post(`${P}/runs/${own.id}/actions/discard`, undefined, t())).status).toBe(202);
    expect(await status()).toEqual([
      [false, 'plan_queued'],
      [true, 'discarded'],
    ]);
    const triggered = (await runsOf(target))[0].id;
    const trigger = (await f.api.get(`${P}/workspaces/${target}/run-triggers?filter[run-trigger][type]=inbound`, t()))
      .body.data[0];
    expect((await f.api.delete(`${P}/run-triggers/${trigger.id}`, t())).status).toBe(204);
    expect((await f.api.post(`${P}/runs/${triggered}/actions/cancel`, undefined, t())).status).toBe(202);
    await applySource();
    expect(await runsOf(target)).toHaveLength(2);
  });
});
