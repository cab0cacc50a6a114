import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { accessFixture, grantWorkspace, teamMember, type AccessFixture } from '../../helpers/access.js';
import { TestApi } from '../../helpers/api.js';
import { TestClock } from '../../helpers/clock.js';
import {
  claim,
  EXECUTING,
  finish,
  newConfiguration,
  P,
  queueRun,
  runStatus,
  workspaceDoc,
} from '../../helpers/run-execution.js';

/**
 * HCP Terraform's forceful actions on executed runs. force-cancel: `can-force-cancel` says who
 * may (whoever may cancel), `force-cancel-available-at` appears with the first cancel (berth has
 * no cool-off: the time of that cancel), `is-force-cancelable` once a cancel was asked of a run
 * still going. force-execute (`POST /runs/:id/actions/force-execute`, `can-force-execute`: who
 * may apply): a pending run discards the run holding its workspace and the runs queued ahead of
 * it, and plans now; refused (HCP's 403 and 409) otherwise.
 */
describe('force-cancel and force-execute', () => {
  let f: AccessFixture;
  let clock: TestClock;
  beforeEach(async () => {
    clock = new TestClock();
    f = await accessFixture(await TestApi.create({ settings: EXECUTING, clock }));
    await newConfiguration(f, f.web);
  });
  afterEach(() => f.api.close());
  const t = () => ({ token: f.owner.token });
  const act = (id: string, action: string, token = f.owner.token) =>
    f.api.post(`${P}/runs/${id}/actions/${action}`, undefined, { token });
  const doc = async (id: string, token = f.owner.token) => (await f.api.get(`${P}/runs/${id}`, { token })).body.data;
  /** A run that planned changes and awaits confirmation, holding the workspace. */
  const planned = async () => {
    const run = await queueRun(f, f.web);
    await claim(f, run.id, 'plan');
    await finish(f, run.id, 'plan');
    expect(await runStatus(f, run.id)).toBe('planned');
    return run;
  };

  describe('force-cancel', () => {
    it('can-force-cancel is true for the owners (and whoever may cancel), false for a reader', async () => {
      const run = await queueRun(f, f.web);
      expect(run.attributes.permissions).toMatchObject({ 'can-force-cancel': true, 'can-cancel': true });
      expect(run.attributes.actions['is-force-cancelable']).toBe(false);
      const reader = await teamMember(f, 'readers');
      await grantWorkspace(f, reader.teamId, f.web, 'read');
      expect((await doc(run.id, reader.token)).attributes.permissions['can-force-cancel']).toBe(false);
    });

    it('force-cancel-available-at appears with the first cancel, of a pending run too; a second cancel keeps it', async () => {
      await queueRun(f, f.web);
      const pending = await queueRun(f, f.web);
      expect(pending.attributes).not.toHaveProperty('force-cancel-available-at');
      const asked = clock.now().toISOString();
      expect((await act(pending.id, 'cancel')).status).toBe(202);
      const canceled = await doc(pending.id);
      expect(canceled.attributes).toMatchObject({
        status: 'canceled',
        'force-cancel-available-at': asked,
        'canceled-at': asked,
      });
      // Ended: nothing is left to force.
      expect(canceled.attributes.actions['is-force-cancelable']).toBe(false);
    });

    it('a running run: available from its cancel, force-cancelable while it goes; a second cancel keeps the first time', async () => {
      const run = await queueRun(f, f.web);
      await claim(f, run.id, 'plan');
      expect((await doc(run.id)).attributes.actions['is-force-cancelable']).toBe(false);
      const asked = clock.now().toISOString();
      expect((await act(run.id, 'cancel')).status).toBe(202);
      clock.advance(5000);
      expect((await act(run.id, 'cancel')).status).toBe(202);
      const going = await doc(run.id);
      expect(going.attributes).toMatchObject({ status: 'planning', 'force-cancel-available-at': asked });
      expect(going.attributes.actions['is-force-cancelable']).toBe(true);
      expect((await act(run.id, 'force-cancel')).status).toBe(202);
      expect(await runStatus(f, run.id)).toBe('force_canceled');
    });
  });

  describe('force-execute', () => {
    it('discards the run holding the workspace and those ahead, and the run plans now, holding the workspace', async () => {
      const holder = await planned();
      const ahead = await queueRun(f, f.web);
      const run = await queueRun(f, f.web);
      const behind = await queueRun(f, f.web);
      expect(run.attributes.permissions['can-force-execute']).toBe(true);
      expect(run.attributes.status).toBe('pending');

      const res = await act(run.id, 'force-execute');
      expect(res.status, res.text).toBe(202);
      expect(res.text).toBe('');
      expect(await runStatus(f, holder.id)).toBe('discarded');
      expect(await runStatus(f, ahead.id)).toBe('discarded');
      expect(await runStatus(f, run.id)).toBe('plan_queued');
      // The run behind it still waits, now behind it.
      expect(await runStatus(f, behind.id)).toBe('pending');
      const ws = (await workspaceDoc(f, f.web)).data;
      expect(ws.attributes.locked).toBe(true);
      expect(ws.relationships['locked-by'].data).toEqual({ type: 'runs', id: run.id });
      expect(ws.relationships['current-run'].data).toEqual({ type: 'runs', id: run.id });
      await claim(f, run.id, 'plan');
    });

    it('refused: 403 for a run that is not pending or waits for no run, 409 when the holder cannot be discarded', async () => {
      const holder = await queueRun(f, f.web);
      await claim(f, holder.id, 'plan');
      const run = await queueRun(f, f.web);
      // The holder plans: it is canceled, not discarded.
      const planning = await act(run.id, 'force-execute');
      expect(planning.status).toBe(409);
      expect(planning.body.errors[0].detail).toBe(
        `Run ${holder.id}, which holds the workspace, is planning: it cannot be discarded (cancel it first: berth run cancel ${holder.id})`,
      );
      const notPending = await act(holder.id, 'force-execute');
      expect(notPending.status).toBe(403);
      expect(notPending.body.errors[0].detail).toBe(
        `Run ${holder.id} is planning: only a pending run can be force-executed`,
      );
      expect(await runStatus(f, holder.id)).toBe('planning');
      expect(await runStatus(f, run.id)).toBe('pending');
    });

    it('refused (403) while a person holds the lock: force-execute never discards someone’s lock', async () => {
      expect((await f.api.post(`${P}/workspaces/${f.web}/actions/lock`, {}, t())).status).toBe(200);
      const run = await queueRun(f, f.web);
      const res = await act(run.id, 'force-execute');
      expect(res.status).toBe(403);
      expect(res.body.errors[0].detail).toContain(
        'not by a run: force-execute discards runs, never a lock someone holds',
      );
      expect(await runStatus(f, run.id)).toBe('pending');
      expect((await workspaceDoc(f, f.web)).data.relationships['locked-by'].data.type).toBe('users');
    });

    it('404 for whoever may not apply runs of the workspace (and for an unknown run); can-force-execute says so', async () => {
      await planned();
      const run = await queueRun(f, f.web);
      const planner = await teamMember(f, 'planners');
      await grantWorkspace(f, planner.teamId, f.web, 'plan');
      expect((await doc(run.id, planner.token)).attributes.permissions['can-force-execute']).toBe(false);
      expect((await act(run.id, 'force-execute', planner.token)).status).toBe(404);
      expect(await runStatus(f, run.id)).toBe('pending');
      expect((await act('run-0000000000000000', 'force-execute')).status).toBe(404);
    });
  });
});
