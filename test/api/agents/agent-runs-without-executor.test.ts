import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Scheduler } from '../../../src/scheduler/scheduler.js';
import { accessFixture, type AccessFixture } from '../../helpers/access.js';
import { TestApi } from '../../helpers/api.js';
import { TestClock } from '../../helpers/clock.js';
import { EXECUTING, newConfiguration, P, runBody, runStatus, workspaceDoc } from '../../helpers/run-execution.js';
import { createAgentPool } from '../../helpers/workspaces.js';

/**
 * A serve that executes no runs itself (no terraform binary, --no-execute-runs) still takes the
 * runs of `agent` workspaces: they queue as anywhere else and a `berth agent` of their pool claims
 * them through the agent protocol; only the runs serve itself would execute (`remote`) end
 * errored at once. The entitlement set's `operations` follows, so that the Terraform CLI sends
 * runs of agent workspaces here.
 */

const NO_BINARY =
  "this berth has no terraform binary: install Terraform on the server's PATH or start berth serve with --terraform-binary";

describe('agent runs on a serve without an executor', () => {
  let f: AccessFixture;
  let pool: string;
  const t = () => ({ token: f.owner.token });

  const setMode = async (ws: string, attributes: Record<string, unknown>) => {
    const res = await f.api.patch(`${P}/workspaces/${ws}`, { data: { type: 'workspaces', attributes } }, t());
    expect(res.status, res.text).toBe(200);
  };
  const newWorkspace = async (name: string) => {
    const res = await f.api.post(
      `${P}/organizations/acme/workspaces`,
      { data: { type: 'workspaces', attributes: { name } } },
      t(),
    );
    expect(res.status, res.text).toBe(201);
    return res.body.data.id as string;
  };
  /** An agent of `pool` that registered through the agent protocol: its token and id. */
  const agentOf = async (poolId: string) => {
    const tok = await f.api.post(
      `${P}/agent-pools/${poolId}/authentication-tokens`,
      { data: { type: 'authentication-tokens', attributes: { description: 'test' } } },
      t(),
    );
    expect(tok.status, tok.text).toBe(201);
    const token = tok.body.data.attributes.token as string;
    const reg = await agentCall(token, null, '/register', { name: 'builder' });
    expect(reg.status).toBe(201);
    return { token, id: ((await reg.json()) as { id: string }).id };
  };
  const agentCall = (token: string, agent: string | null, path: string, json?: unknown) =>
    f.api.app.fetch(
      new Request(`http://berth.test/api/agent${path}`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer ${token}`,
          ...(agent ? { 'X-Berth-Agent': agent } : {}),
          ...(json !== undefined ? { 'Content-Type': 'application/json' } : {}),
        },
        body: json !== undefined ? JSON.stringify(json) : undefined,
      }),
    );
  const entitlements = async () =>
    (await f.api.get(`${P}/organizations/acme/entitlement-set`, t())).body.data.attributes as Record<string, boolean>;

  beforeEach(async () => {
    f = await accessFixture(await TestApi.create({ clock: new TestClock() }));
    pool = await createAgentPool(f.api, 'acme', 'builders');
    await setMode(f.web, { 'execution-mode': 'agent', 'agent-pool-id': pool });
  });
  afterEach(() => f.api.close());

  it('queues the run of an agent workspace, which takes the lock and which an agent of the pool claims', async () => {
    const cv = await newConfiguration(f, f.web);
    const first = await f.api.post(`${P}/runs`, runBody(f.web, { message: 'by agent' }, cv.id), t());
    expect(first.status, first.text).toBe(201);
    expect(first.body.data.attributes).toMatchObject({ status: 'plan_queued', 'error-message': null });
    const ws = (await workspaceDoc(f, f.web)).data;
    expect(ws.attributes.locked).toBe(true);
    expect(ws.relationships['current-run'].data.id).toBe(first.body.data.id);
    // A second one waits behind it, as anywhere.
    const second = await f.api.post(`${P}/runs`, runBody(f.web, {}, cv.id), t());
    expect(second.body.data.attributes.status).toBe('pending');

    const agent = await agentOf(pool);
    const claimed = await agentCall(agent.token, agent.id, '/claim');
    expect(claimed.status).toBe(200);
    expect(((await claimed.json()) as { claim: unknown }).claim).toMatchObject({
      runId: first.body.data.id,
      phase: 'plan',
    });
    expect(await runStatus(f, first.body.data.id)).toBe('planning');
    expect(await runStatus(f, second.body.data.id)).toBe('pending');
  });

  it('a run without a configuration version, or queued by an upload, is executed on the agent too', async () => {
    await newConfiguration(f, f.web, { autoQueueRuns: true });
    const runs = (await f.api.get(`${P}/workspaces/${f.web}/runs`, t())).body.data;
    expect(runs).toHaveLength(1);
    expect(runs[0].attributes.status).toBe('plan_queued');
    const again = await f.api.post(`${P}/runs`, runBody(f.web, { 'plan-only': true }), t());
    expect(again.status, again.text).toBe(201);
    expect(again.body.data.attributes).toMatchObject({ status: 'plan_queued', 'plan-only': true });
    expect(again.body.data.relationships['configuration-version'].data.id).toBe(
      runs[0].relationships['configuration-version'].data.id,
    );
  });

  it('a run of a remote workspace still ends errored at once; an agent never sees it', async () => {
    const remote = await newWorkspace('api');
    const cv = await newConfiguration(f, remote);
    const res = await f.api.post(`${P}/runs`, runBody(remote, {}, cv.id), t());
    expect(res.status, res.text).toBe(201);
    expect(res.body.data.attributes).toMatchObject({ status: 'errored', 'error-message': NO_BINARY });
    expect((await workspaceDoc(f, remote)).data.attributes.locked).toBe(false);
    // Without a configuration version there it stays a recorded run, as before.
    const recorded = await f.api.post(`${P}/runs`, runBody(remote), t());
    expect(recorded.body.data.attributes.status).toBe('pending');
    expect(recorded.body.data.relationships['configuration-version']?.data ?? null).toBeNull();
    const agent = await agentOf(pool);
    expect(await (await agentCall(agent.token, agent.id, '/claim')).json()).toEqual({ claim: null });
  });

  it('a workspace inheriting the agent mode from its project or organization queues too', async () => {
    const inheriting = await newWorkspace('inherits');
    const org = await f.api.patch(
      `${P}/organizations/acme`,
      {
        data: {
          type: 'organizations',
          attributes: { 'default-execution-mode': 'agent' },
          relationships: { 'default-agent-pool': { data: { type: 'agent-pools', id: pool } } },
        },
      },
      t(),
    );
    expect(org.status, org.text).toBe(200);
    const cv = await newConfiguration(f, inheriting);
    const res = await f.api.post(`${P}/runs`, runBody(inheriting, {}, cv.id), t());
    expect(res.body.data.attributes.status).toBe('plan_queued');
  });

  it('the entitlement set answers operations: true once the organization sends runs to agents', async () => {
    expect(await entitlements()).toMatchObject({ operations: true, agents: true });
    await setMode(f.web, { 'execution-mode': 'remote' });
    expect(await entitlements()).toMatchObject({ operations: false, agents: true });
    // A project whose default is agent: its new workspaces execute on agents.
    const project = await f.api.patch(
      `${P}/projects/${f.beta}`,
      {
        data: {
          type: 'projects',
          attributes: { 'default-execution-mode': 'agent' },
          relationships: { 'default-agent-pool': { data: { type: 'agent-pools', id: pool } } },
        },
      },
      t(),
    );
    expect(project.status, project.text).toBe(200);
    expect((await entitlements()).operations).toBe(true);
  });

  it('on a serve that executes runs, operations is true whatever the modes', async () => {
    const executing = await accessFixture(await TestApi.create({ settings: EXECUTING }));
    try {
      const ent = await executing.api.get(`${P}/organizations/acme/entitlement-set`, {
        token: executing.owner.token,
      });
      expect(ent.body.data.attributes).toMatchObject({ operations: true, agents: true });
    } finally {
      await executing.api.close();
    }
  });
});

describe('the scheduler of a serve without an executor', () => {
  it('queues the auto-destroy of an agent workspace for its agents; a remote one keeps its due time', async () => {
    const clock = new TestClock();
    clock.set(Date.parse('2030-01-15T12:00:00.000Z'));
    const f = await accessFixture(await TestApi.create({ clock }));
    try {
      const t = { token: f.owner.token };
      const pool = await createAgentPool(f.api, 'acme', 'builders');
      const patch = (ws: string, attributes: Record<string, unknown>) =>
        f.api.patch(`${P}/workspaces/${ws}`, { data: { type: 'workspaces', attributes } }, t);
      expect((await patch(f.web, { 'execution-mode': 'agent', 'agent-pool-id': pool })).status).toBe(200);
      const remote = await f.api.post(
        `${P}/organizations/acme/workspaces`,
        { data: { type: 'workspaces', attributes: { name: 'api' } } },
        t,
      );
      const api = remote.body.data.id as string;
      for (const ws of [f.web, api]) {
        await newConfiguration(f, ws);
        expect((await patch(ws, { 'auto-destroy-at': clock.now().toISOString() })).status).toBe(200);
      }
      const scheduler = new Scheduler({
        db: f.api.store.db,
        clock,
        holder: 'h',
        edition: 'hosted',
        assessmentIntervalMs: 24 * 60 * 60_000,
        executesRuns: false,
        log: () => {},
      });
      const tick = await scheduler.tick();
      expect(tick.autoDestroys).toMatchObject([{ workspaceId: f.web, outcome: 'queued' }]);
      expect(await runStatus(f, tick.autoDestroys[0].runId!)).toBe('plan_queued');
      // The remote workspace: nothing queued, its due time kept for a serve that executes runs.
      expect((await f.api.get(`${P}/workspaces/${api}/runs`, t)).body.data).toEqual([]);
      expect((await workspaceDoc(f, api)).data.attributes['auto-destroy-at']).toBe(clock.now().toISOString());
    } finally {
      await f.api.close();
    }
  });
});
