import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { queueDueAssessments } from '../../../src/services/runs/assessments.js';
import { storeRunState } from '../../../src/services/runs/run-phases.js';
import { storeSavedPlan } from '../../../src/services/runs/saved-plans.js';
import { STALE_MESSAGE } from '../../../src/services/runs/stale-saved-plans.js';
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
  stateOf,
  workspaceDoc,
} from '../../helpers/run-execution.js';

/**
 * Saved-plan runs (`save-plan: true`, what `terraform plan -out` creates with a `cloud` block), as
 * HCP Terraform documents them: they plan at once without locking their workspace or becoming its
 * current run, end `planned_and_saved`, and join the workspace's queue only when applied; a saved
 * plan whose workspace's state changed since it was planned is stale: discarded, never applied.
 * The executor's side is driven straight on the services (claim, finishPhase).
 */

const STATE = (serial: number) => stateOf(serial, 'saved-plan-test');

describe('saved-plan runs', () => {
  let f: AccessFixture;
  const t = () => ({ token: f.owner.token });
  const db = () => f.api.store.db;
  const run = async (id: string) => (await f.api.get(`${P}/runs/${id}`, t())).body.data;
  const act = (id: string, action: string) => f.api.post(`${P}/runs/${id}/actions/${action}`, undefined, t());
  const savedPlanIds = async () =>
    (await db().selectFrom('saved_plans').select('run_id').execute()).map((r) => r.run_id);

  /** A saved-plan run planned with changes (its plan file stored, as the executor does). */
  const plannedAndSaved = async () => {
    const saved = await queueRun(f, f.web, { 'save-plan': true });
    await claim(f, saved.id, 'plan');
    await storeSavedPlan(db(), saved.id, Buffer.from('plan'), now());
    await finish(f, saved.id, 'plan');
    return saved;
  };
  /** A normal run that plans and applies, writing a new state (serial `serial`). */
  const applyNormalRun = async (serial: number) => {
    const normal = await queueRun(f, f.web, { 'auto-apply': true });
    await claim(f, normal.id, 'plan');
    await storeSavedPlan(db(), normal.id, Buffer.from('plan'), now());
    await finish(f, normal.id, 'plan');
    await claim(f, normal.id, 'apply');
    await storeRunState(db(), normal.id, STATE(serial), now());
    await finish(f, normal.id, 'apply');
    expect(await runStatus(f, normal.id)).toBe('applied');
    return normal;
  };

  beforeEach(async () => {
    f = await executingFixture();
    await newConfiguration(f, f.web);
  });
  afterEach(async () => {
    await f.api.close();
  });

  it('plans at once without locking the workspace, ends planned_and_saved, confirmable', async () => {
    const saved = await queueRun(f, f.web, { 'save-plan': true });
    expect(saved.attributes['save-plan']).toBe(true);
    expect(saved.attributes['auto-apply']).toBe(false);
    expect(saved.attributes.status).toBe('plan_queued');
    let ws = (await workspaceDoc(f, f.web)).data;
    expect(ws.attributes.locked).toBe(false);
    expect(ws.relationships['current-run'].data).toBeNull();

    await claim(f, saved.id, 'plan');
    await storeSavedPlan(db(), saved.id, Buffer.from('plan'), now());
    await finish(f, saved.id, 'plan');
    const doc = await run(saved.id);
    expect(doc.attributes.status).toBe('planned_and_saved');
    expect(doc.attributes['status-timestamps']['planned-and-saved-at']).toBeTruthy();
    expect(doc.attributes.actions['is-confirmable']).toBe(true);
    expect(doc.attributes.actions['is-discardable']).toBe(true);
    ws = (await workspaceDoc(f, f.web)).data;
    expect(ws.attributes.locked).toBe(false);
    // The saved plan is kept for the apply: planned_and_saved is not a final status.
    expect(await savedPlanIds()).toEqual([saved.id]);
  });

  it('does not block the workspace: a normal run queues, plans and applies meanwhile', async () => {
    const saved = await plannedAndSaved();
    const normal = await applyNormalRun(1);
    const ws = (await workspaceDoc(f, f.web)).data;
    expect(ws.relationships['current-run'].data.id).toBe(normal.id);
    expect(ws.attributes.locked).toBe(false);
    // The normal run's apply changed the state: the saved plan is stale, discarded, its file gone.
    const doc = await run(saved.id);
    expect(doc.attributes.status).toBe('discarded');
    expect(doc.attributes.actions['is-confirmable']).toBe(false);
    expect(await savedPlanIds()).toEqual([]);
    const applied = await act(saved.id, 'apply');
    expect(applied.status).toBe(409);
  });

  it('applied later: it takes the workspace, becomes its current run and applies its saved plan', async () => {
    await applyNormalRun(1);
    const saved = await plannedAndSaved();
    expect((await act(saved.id, 'apply')).status).toBe(202);
    expect(await runStatus(f, saved.id)).toBe('apply_queued');
    const ws = (await workspaceDoc(f, f.web)).data;
    expect(ws.attributes.locked).toBe(true);
    expect(ws.relationships['current-run'].data.id).toBe(saved.id);
    expect(ws.relationships['locked-by'].data).toEqual({ id: saved.id, type: 'runs' });
    await claim(f, saved.id, 'apply');
    await storeRunState(db(), saved.id, STATE(2), now());
    await finish(f, saved.id, 'apply');
    expect(await runStatus(f, saved.id)).toBe('applied');
    expect(await savedPlanIds()).toEqual([]);
    expect((await workspaceDoc(f, f.web)).data.attributes.locked).toBe(false);
  });

  it('applied while another run holds the workspace: waits confirmed, then applies in turn', async () => {
    const saved = await plannedAndSaved();
    const normal = await queueRun(f, f.web);
    await claim(f, normal.id, 'plan');
    await finish(f, normal.id, 'plan', { outcome: 'finished', hasChanges: true });
    expect(await runStatus(f, normal.id)).toBe('planned');
    expect((await act(saved.id, 'apply')).status).toBe(202);
    expect(await runStatus(f, saved.id)).toBe('confirmed');
    // Discarding the normal run changes no state: the saved plan's turn comes, still valid.
    expect((await act(normal.id, 'discard')).status).toBe(202);
    expect(await runStatus(f, saved.id)).toBe('apply_queued');
    expect((await workspaceDoc(f, f.web)).data.relationships['current-run'].data.id).toBe(saved.id);
  });

  it('applied while a user locks the workspace: waits confirmed; after the unlock, the next claim applies it', async () => {
    const saved = await plannedAndSaved();
    const lock = await f.api.post(`${P}/workspaces/${f.web}/actions/lock`, { reason: 'maintenance' }, t());
    expect(lock.status, lock.text).toBe(200);
    expect((await act(saved.id, 'apply')).status).toBe(202);
    expect(await runStatus(f, saved.id)).toBe('confirmed');
    const unlock = await f.api.post(`${P}/workspaces/${f.web}/actions/unlock`, undefined, t());
    expect(unlock.status, unlock.text).toBe(200);
    await claim(f, saved.id, 'apply');
    expect(await runStatus(f, saved.id)).toBe('applying');
  });

  it('found stale as its turn comes: discarded with the stale message, and the run behind it goes on', async () => {
    const saved = await plannedAndSaved();
    const lock = await f.api.post(`${P}/workspaces/${f.web}/actions/lock`, { reason: 'maintenance' }, t());
    expect(lock.status, lock.text).toBe(200);
    expect((await act(saved.id, 'apply')).status).toBe(202);
    const behind = await queueRun(f, f.web);
    expect(await runStatus(f, behind.id)).toBe('pending');
    // A state made current by a path that did not discard the waiting saved plan at once.
    await db().updateTable('runs').set({ plan_state_version_id: 'sv-elsewhere' }).where('id', '=', saved.id).execute();
    const unlock = await f.api.post(`${P}/workspaces/${f.web}/actions/unlock`, undefined, t());
    expect(unlock.status, unlock.text).toBe(200);
    await claim(f, behind.id, 'plan');
    const doc = await run(saved.id);
    expect(doc.attributes.status).toBe('discarded');
    expect(doc.attributes['error-message']).toBe(STALE_MESSAGE);
    expect(await savedPlanIds()).toEqual([]);
  });

  it('a saved plan waiting its turn goes stale when the run before it applies', async () => {
    const saved = await plannedAndSaved();
    const normal = await queueRun(f, f.web);
    await claim(f, normal.id, 'plan');
    await storeSavedPlan(db(), normal.id, Buffer.from('plan'), now());
    await finish(f, normal.id, 'plan');
    expect((await act(saved.id, 'apply')).status).toBe(202);
    expect((await act(normal.id, 'apply')).status).toBe(202);
    await claim(f, normal.id, 'apply');
    await storeRunState(db(), normal.id, STATE(1), now());
    await finish(f, normal.id, 'apply');
    expect(await runStatus(f, saved.id)).toBe('discarded');
    expect((await workspaceDoc(f, f.web)).data.attributes.locked).toBe(false);
  });

  it('stale while it planned: the state changed between its plan start and end, so it ends discarded', async () => {
    const saved = await queueRun(f, f.web, { 'save-plan': true });
    await claim(f, saved.id, 'plan');
    await applyNormalRun(1);
    await storeSavedPlan(db(), saved.id, Buffer.from('plan'), now());
    await finish(f, saved.id, 'plan');
    const doc = await run(saved.id);
    expect(doc.attributes.status).toBe('discarded');
    expect(await savedPlanIds()).toEqual([]);
  });

  it('discarded by a user: discarded, its plan file gone; no changes: planned_and_finished', async () => {
    const saved = await plannedAndSaved();
    expect((await act(saved.id, 'discard')).status).toBe(202);
    expect(await runStatus(f, saved.id)).toBe('discarded');
    expect(await savedPlanIds()).toEqual([]);

    const empty = await queueRun(f, f.web, { 'save-plan': true });
    await claim(f, empty.id, 'plan');
    await finish(f, empty.id, 'plan', { outcome: 'finished', hasChanges: false });
    expect(await runStatus(f, empty.id)).toBe('planned_and_finished');
  });

  it('refuses save-plan with plan-only or a speculative configuration (422), creating nothing', async () => {
    const both = await f.api.post(
      `${P}/runs`,
      {
        data: {
          type: 'runs',
          attributes: { 'save-plan': true, 'plan-only': true },
          relationships: { workspace: { data: { type: 'workspaces', id: f.web } } },
        },
      },
      t(),
    );
    expect(both.status).toBe(422);
    expect(both.body.errors[0].source.pointer).toBe('/data/attributes/save-plan');
    const spec = await newConfiguration(f, f.web, { speculative: true });
    const onSpec = await f.api.post(
      `${P}/runs`,
      {
        data: {
          type: 'runs',
          attributes: { 'save-plan': true },
          relationships: {
            workspace: { data: { type: 'workspaces', id: f.web } },
            'configuration-version': { data: { type: 'configuration-versions', id: spec.id } },
          },
        },
      },
      t(),
    );
    expect(onSpec.status).toBe(422);
    const bad = await f.api.post(
      `${P}/runs`,
      {
        data: {
          type: 'runs',
          attributes: { 'save-plan': 'yes' },
          relationships: { workspace: { data: { type: 'workspaces', id: f.web } } },
        },
      },
      t(),
    );
    expect(bad.status).toBe(422);
    expect((await db().selectFrom('runs').select('id').execute()).length).toBe(0);
  });

  it('a saved plan left waiting does not hold back health assessments of its workspace', async () => {
    await applyNormalRun(1);
    await db().updateTable('workspaces').set({ assessments_enabled: 1 }).where('id', '=', f.web).execute();
    const saved = await plannedAndSaved();
    const queued = await queueDueAssessments(db(), new Date(), 60 * 60_000);
    expect(queued).toHaveLength(1);
    expect((await run(queued[0])).attributes['refresh-only']).toBe(true);
    // The assessment changes no state: the saved plan still waits, applicable.
    expect(await runStatus(f, saved.id)).toBe('planned_and_saved');
  });
});
