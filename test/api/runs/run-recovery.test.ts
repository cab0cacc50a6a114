import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { finishPhase, heartbeatRuns, recoverInterrupted } from '../../../src/services/runs/run-phases.js';
import { claimRun } from '../../../src/services/runs/run-claim.js';
import type { AccessFixture } from '../../helpers/access.js';
import { TestClock } from '../../helpers/clock.js';
import {
  executingFixture,
  newConfiguration,
  P,
  queueRun,
  runStatus,
  workspaceDoc,
} from '../../helpers/run-execution.js';

/**
 * Crash recovery: a planning or applying run whose executor stopped beating for longer than the
 * bound (killed, crashed) ends errored with a message and releases its workspace, and the queue
 * moves on; a run whose executor beats (another live instance) is left alone. The clock is the
 * test's: the bound is crossed by moving it, not by waiting.
 */
describe('runs interrupted by a crash', () => {
  let f: AccessFixture;
  const clock = new TestClock();
  const BOUND = 60_000;
  const at = () => clock.now().toISOString();
  beforeEach(async () => {
    clock.set(Date.parse('2030-01-15T12:00:00.000Z'));
    f = await executingFixture();
    await newConfiguration(f, f.web);
  });
  afterEach(() => f.api.close());
  const db = () => f.api.store.db;

  it('a run whose executor stopped beating ends errored, its workspace unlocked, the next queued run goes on', async () => {
    const first = await queueRun(f, f.web);
    const second = await queueRun(f, f.web);
    expect(await runStatus(f, second.id)).toBe('pending');
    expect((await claimRun(db(), 'gone-executor', at()))?.runId).toBe(first.id);
    expect((await workspaceDoc(f, f.web)).data.relationships['locked-by'].data.id).toBe(first.id);

    // Within the bound: nothing ends.
    clock.advance(BOUND);
    expect(await recoverInterrupted(db(), clock.now(), BOUND)).toEqual([]);
    expect(await runStatus(f, first.id)).toBe('planning');

    // Past it: the run ends errored, with a message in its document and its plan's log.
    clock.advance(1);
    expect(await recoverInterrupted(db(), clock.now(), BOUND)).toEqual([first.id]);
    const doc = (await f.api.get(`${P}/runs/${first.id}`, { token: f.owner.token })).body.data;
    expect(doc.attributes.status).toBe('errored');
    expect(doc.attributes['error-message']).toContain('The run was interrupted: its executor (gone-executor)');
    expect(doc.attributes['error-message']).toContain('planning');
    const plan = (await f.api.get(`${P}/plans/${doc.relationships.plan.data.id}`, { token: f.owner.token })).body.data;
    expect(plan.attributes.status).toBe('errored');
    const log = await f.api.get(new URL(plan.attributes['log-read-url']).pathname);
    expect(log.text).toContain('The run was interrupted');
    expect(log.text.endsWith('\x03')).toBe(true);

    // The lock the run held is released; the queued run took the workspace and can be claimed.
    const ws = (await workspaceDoc(f, f.web)).data;
    expect(ws.relationships['locked-by'].data.id).toBe(second.id);
    expect(await runStatus(f, second.id)).toBe('plan_queued');
    expect((await claimRun(db(), 'new-executor', at()))?.runId).toBe(second.id);
    // Ended once: looking again changes nothing.
    clock.advance(1);
    expect(await recoverInterrupted(db(), clock.now(), BOUND)).toEqual([]);
  });

  it("another instance's run that still beats is left alone; an applying run gone quiet ends errored too", async () => {
    await f.api.patch(
      `${P}/workspaces/${f.web}`,
      { data: { type: 'workspaces', attributes: { 'auto-apply': true } } },
      { token: f.owner.token },
    );
    const run = await queueRun(f, f.web);
    expect((await claimRun(db(), 'live-a', at()))?.runId).toBe(run.id);
    // Instance a beats every 15 s; instance b looks for interrupted runs meanwhile.
    for (let i = 0; i < 8; i++) {
      clock.advance(15_000);
      await heartbeatRuns(db(), 'live-a', at());
      expect(await recoverInterrupted(db(), clock.now(), BOUND)).toEqual([]);
    }
    expect(await runStatus(f, run.id)).toBe('planning');
    // A heartbeat of another executor's name does not keep a run alive.
    clock.advance(BOUND + 1);
    await heartbeatRuns(db(), 'live-b', at());
    expect(await recoverInterrupted(db(), clock.now(), BOUND)).toEqual([run.id]);

    // Applying: the apply ends errored.
    await newConfiguration(f, f.web);
    const applying = await queueRun(f, f.web, { 'auto-apply': true });
    expect((await claimRun(db(), 'a', at()))?.runId).toBe(applying.id);
    await finishPhase(
      db(),
      applying.id,
      'plan',
      { outcome: 'finished', hasChanges: true, counts: { additions: 1, changes: 0, destructions: 0 } },
      at(),
    );
    expect(await claimRun(db(), 'a', at())).toMatchObject({ runId: applying.id, phase: 'apply' });
    clock.advance(BOUND + 1);
    expect(await recoverInterrupted(db(), clock.now(), BOUND)).toEqual([applying.id]);
    const doc = (await f.api.get(`${P}/runs/${applying.id}`, { token: f.owner.token })).body.data;
    expect(doc.attributes.status).toBe('errored');
    expect(doc.attributes['error-message']).toContain('applying');
    expect((await workspaceDoc(f, f.web)).data.attributes.locked).toBe(false);
  });
});
