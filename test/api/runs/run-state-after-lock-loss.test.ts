import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { storeRunState } from '../../../src/services/runs/run-phases.js';
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
 * A run that loses the workspace's lock never applies (issue 46): force-unlocked by an admin while it
 * waits or plans, it ends (discarded, or canceled); while it applies, the force-unlock is refused.
 * Force-canceled while applying (its terraform killed, the next run may hold the workspace), the
 * late state is kept in the history but never made current by itself. The executor's side is
 * driven on the services.
 */

const STATE = (serial: number) => stateOf(serial, 'lock-loss-test', { serial: { value: serial, type: 'number' } });

describe('state written by a run that lost its lock', () => {
  let f: AccessFixture;
  const t = () => ({ token: f.owner.token });
  const act = (id: string, action: string) => f.api.post(`${P}/runs/${id}/actions/${action}`, undefined, t());
  const current = async () => (await workspaceDoc(f, f.web)).data.relationships['current-state-version'].data?.id;
  const versions = () =>
    f.api.store.db
      .selectFrom('state_versions')
      .select(['id', 'intermediate', 'serial'])
      .where('workspace_id', '=', f.web)
      .orderBy('seq')
      .execute();

  beforeEach(async () => {
    f = await executingFixture();
    await newConfiguration(f, f.web);
  });
  afterEach(() => f.api.close());

  const forceUnlock = () => f.api.post(`${P}/workspaces/${f.web}/actions/force-unlock`, undefined, t());
  const lockAs = (token: string) =>
    f.api.post(`${P}/workspaces/${f.web}/actions/lock`, { reason: 'state surgery' }, { token });

  it('force-unlocked while it waits for confirmation: the run is discarded and can never apply', async () => {
    const run = await queueRun(f, f.web);
    await claim(f, run.id, 'plan');
    await finish(f, run.id, 'plan');
    expect(await runStatus(f, run.id)).toBe('planned');
    const unlocked = await forceUnlock();
    expect(unlocked.status, unlocked.text).toBe(200);
    expect(unlocked.body.data.attributes.locked).toBe(false);
    expect(await runStatus(f, run.id)).toBe('discarded');
    const doc = (await f.api.get(`${P}/runs/${run.id}`, t())).body.data;
    expect(doc.attributes['error-message']).toContain('force-unlocked');
    // Another party locks the workspace for its own change; the run's apply is refused.
    expect((await lockAs(f.owner.token)).status).toBe(200);
    expect((await act(run.id, 'apply')).status).toBe(409);
    expect((await workspaceDoc(f, f.web)).data.attributes.locked).toBe(true);
    expect(await current()).toBeUndefined();
  });

  it('force-unlocked while its plan executes: the lock goes now, the plan ends canceled, nothing applies', async () => {
    const run = await queueRun(f, f.web, { 'auto-apply': true });
    await claim(f, run.id, 'plan');
    expect(await runStatus(f, run.id)).toBe('planning');
    const unlocked = await forceUnlock();
    expect(unlocked.status, unlocked.text).toBe(200);
    expect(unlocked.body.data.attributes.locked).toBe(false);
    // The plan finishes before terraform hears of the cancel: the run ends canceled, not applying.
    await finish(f, run.id, 'plan');
    expect(await runStatus(f, run.id)).toBe('canceled');
    expect((await workspaceDoc(f, f.web)).data.attributes.locked).toBe(false);
  });

  it('a run that applies keeps its lock: the force-unlock is refused (409) and says to cancel the run', async () => {
    const run = await queueRun(f, f.web, { 'auto-apply': true });
    await claim(f, run.id, 'plan');
    await finish(f, run.id, 'plan');
    await claim(f, run.id, 'apply');
    expect(await runStatus(f, run.id)).toBe('applying');
    const refused = await forceUnlock();
    expect(refused.status, refused.text).toBe(409);
    expect(refused.body.errors[0].detail).toMatch(/applying.*Cancel the run/);
    expect((await workspaceDoc(f, f.web)).data.attributes.locked).toBe(true);
    const sv = await storeRunState(f.api.store.db, run.id, STATE(1), now());
    await finish(f, run.id, 'apply');
    expect(await runStatus(f, run.id)).toBe('applied');
    expect(await current()).toBe(sv);
  });

  it('force-canceled while applying: its late state is kept, not made current, not even by the next run', async () => {
    const first = await queueRun(f, f.web, { 'auto-apply': true });
    await claim(f, first.id, 'plan');
    await finish(f, first.id, 'plan');
    await claim(f, first.id, 'apply');
    const applied = await storeRunState(f.api.store.db, first.id, STATE(1), now());
    await finish(f, first.id, 'apply');
    expect(await current()).toBe(applied);

    const killed = await queueRun(f, f.web, { 'auto-apply': true });
    await claim(f, killed.id, 'plan');
    await finish(f, killed.id, 'plan');
    await claim(f, killed.id, 'apply');
    expect((await act(killed.id, 'cancel')).status).toBe(202);
    expect((await act(killed.id, 'force-cancel')).status).toBe(202);
    const next = await queueRun(f, f.web);
    await claim(f, next.id, 'plan');
    // The killed apply's executor hands over what terraform left, while the next run plans.
    const late = await storeRunState(f.api.store.db, killed.id, STATE(2), now());
    expect(await current()).toBe(applied);
    await finish(f, next.id, 'plan', { outcome: 'finished', hasChanges: false });
    expect(await runStatus(f, next.id)).toBe('planned_and_finished');
    expect(await current()).toBe(applied);
    expect((await versions()).find((v) => v.id === late)).toMatchObject({ intermediate: 0, serial: 2 });
  });
});
