import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { inProcessPort } from '../../../src/runner/in-process-port.js';
import type { RunnerPort } from '../../../src/runner/port.js';
import { systemClock } from '../../../src/domain/common/clock.js';
import { createStateVersion } from '../../../src/services/state/state-versions.js';
import { grantWorkspace, teamMember, type AccessFixture } from '../../helpers/access.js';
import {
  EXECUTING,
  executingFixture,
  finish,
  newConfiguration,
  P,
  PLANNED_CHANGES,
  queueRun,
  runStatus,
  stateOf,
  workspaceDoc,
} from '../../helpers/run-execution.js';

/**
 * Issue 42, item 4: a plan cannot write state. A plan's run token reads only; state versions
 * come from the apply phase's token (or a user who may write state), and a run that never
 * applied makes none current when it releases its workspace, even one written while it planned.
 */

const md5 = (b: Buffer) => createHash('md5').update(b).digest('hex');
const svBody = (state: Buffer, serial: number) => ({
  data: { type: 'state-versions', attributes: { serial, md5: md5(state), state: state.toString('base64') } },
});
const LINEAGE = 'plan-reads-only';

describe("a plan's run token", () => {
  let f: AccessFixture;
  let port: RunnerPort;
  let planner: string;
  let first: string;
  const owner = () => ({ token: f.owner.token });
  const current = async () => (await workspaceDoc(f, f.web)).data.relationships['current-state-version'].data?.id;
  const versions = () =>
    f.api.store.db
      .selectFrom('state_versions')
      .select(['id', 'intermediate'])
      .where('workspace_id', '=', f.web)
      .orderBy('seq')
      .execute();

  beforeEach(async () => {
    f = await executingFixture();
    port = inProcessPort(f.api.store.db, systemClock);
    // The workspace's state, written by its owner under their lock.
    expect((await f.api.post(`${P}/workspaces/${f.web}/actions/lock`, {}, owner())).status).toBe(200);
    const pushed = await f.api.post(`${P}/workspaces/${f.web}/state-versions`, svBody(stateOf(1, LINEAGE), 1), owner());
    expect(pushed.status, pushed.text).toBe(201);
    first = pushed.body.data.id;
    expect((await f.api.post(`${P}/workspaces/${f.web}/actions/unlock`, undefined, owner())).status).toBe(200);
    // Someone who may only queue plans there.
    const dev = await teamMember(f, 'devs');
    await grantWorkspace(f, dev.teamId, f.web, 'plan');
    planner = dev.token;
    await newConfiguration(f, f.web, { token: planner });
  });
  afterEach(() => f.api.close());

  async function plannedRun(): Promise<{ runId: string; token: string }> {
    const run = await queueRun(f, f.web, {}, planner);
    const claimed = await port.claim('test-executor');
    expect(claimed).toMatchObject({ runId: run.id, phase: 'plan' });
    return { runId: run.id, token: claimed!.token };
  }

  it('may not create a state version (404), so the discarded run leaves the state as it was', async () => {
    const run = await plannedRun();
    // It still reads its workspace's state: that is what a plan needs.
    expect((await f.api.get(`${P}/workspaces/${f.web}/current-state-version`, { token: run.token })).status).toBe(200);
    const injected = await f.api.post(`${P}/workspaces/${f.web}/state-versions`, svBody(stateOf(2, LINEAGE), 2), {
      token: run.token,
    });
    expect(injected.status, injected.text).toBe(404);
    expect(await versions()).toHaveLength(1);
    await finish(f, run.runId, 'plan', PLANNED_CHANGES);
    const discarded = await f.api.post(`${P}/runs/${run.runId}/actions/discard`, undefined, { token: planner });
    expect(discarded.status, discarded.text).toBe(202);
    expect(await runStatus(f, run.runId)).toBe('discarded');
    expect(await current()).toBe(first);
    expect(await versions()).toHaveLength(1);
  });

  it("a version written while the run planned (as a plan's token could before) is kept but never made current", async () => {
    const run = await plannedRun();
    // Written as a token of the run would, bypassing the policy's phase rule (an older berth's
    // plan token, or any path to come): the run's release must not promote it.
    const row = await f.api.store.db
      .selectFrom('run_tokens')
      .select(['id', 'organization_id'])
      .where('run_id', '=', run.runId)
      .executeTakeFirstOrThrow();
    const actor = {
      kind: 'run' as const,
      tokenId: row.id,
      runId: run.runId,
      workspaceId: f.web,
      organizationId: row.organization_id,
      phase: 'apply' as const,
    };
    const ctx = { db: f.api.store.db, actor, clock: systemClock, settings: EXECUTING };
    const state = stateOf(2, LINEAGE);
    const sv = await createStateVersion(
      ctx,
      { id: f.web },
      { serial: 2, md5: md5(state), lineage: LINEAGE, state: state.toString('base64'), jsonState: null, force: false },
    );
    expect(sv.intermediate).toBe(true);
    await finish(f, run.runId, 'plan', PLANNED_CHANGES);
    expect((await f.api.post(`${P}/runs/${run.runId}/actions/discard`, undefined, { token: planner })).status).toBe(
      202,
    );
    expect(await current()).toBe(first);
    expect((await versions()).find((v) => v.id === sv.id)).toMatchObject({ intermediate: 0 });
    // Nor by whoever holds the workspace next: the owner's lock and unlock.
    expect((await f.api.post(`${P}/workspaces/${f.web}/actions/lock`, {}, owner())).status).toBe(200);
    expect((await f.api.post(`${P}/workspaces/${f.web}/actions/unlock`, undefined, owner())).status).toBe(200);
    expect(await current()).toBe(first);
  });
});
