import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sweepAgents } from '../../../src/services/agents/agent-liveness.js';
import { claimRun } from '../../../src/services/runs/run-claim.js';
import { recoverInterrupted } from '../../../src/services/runs/run-phases.js';
import { accessFixture, teamMember, type AccessFixture } from '../../helpers/access.js';
import { TestApi } from '../../helpers/api.js';
import { TestClock } from '../../helpers/clock.js';
import { ARCHIVE, EXECUTING, newConfiguration, P, queueRun } from '../../helpers/run-execution.js';
import { createAgentPool } from '../../helpers/workspaces.js';

/**
 * The agent protocol (`/api/agent`, what `berth agent` calls): an agent token does that and
 * nothing else, and each call about a run is refused unless the run's workspace executes on the
 * token's pool and this agent claimed it. Driven with a TestClock: liveness is the clock's.
 */

interface Answer {
  status: number;
  json: any;
  bytes: Buffer;
}

const TIMEOUT_MS = 30_000;

describe('the agent protocol', () => {
  let f: AccessFixture;
  let clock: TestClock;
  let pool: string;
  let otherPool: string;

  const call = async (
    token: string | null,
    method: string,
    path: string,
    options: { agent?: string; json?: unknown; bytes?: Buffer } = {},
  ): Promise<Answer> => {
    const headers: Record<string, string> = {};
    if (token) headers.Authorization = `Bearer ${token}`;
    if (options.agent) headers['X-Berth-Agent'] = options.agent;
    let body: string | Uint8Array | undefined;
    if (options.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.json);
    } else if (options.bytes) {
      headers['Content-Type'] = 'application/octet-stream';
      body = new Uint8Array(options.bytes);
    }
    const res = await f.api.app.fetch(new Request(`http://berth.test/api/agent${path}`, { method, headers, body }));
    const bytes = Buffer.from(await res.arrayBuffer());
    let json: any = null;
    try {
      json = JSON.parse(bytes.toString());
    } catch {
      json = null;
    }
    return { status: res.status, json, bytes };
  };

  const newToken = async (poolId: string): Promise<string> => {
    const res = await f.api.post(
      `${P}/agent-pools/${poolId}/authentication-tokens`,
      { data: { type: 'authentication-tokens', attributes: { description: 'test' } } },
      { token: f.owner.token },
    );
    expect(res.status, res.text).toBe(201);
    return res.body.data.attributes.token;
  };
  const register = async (token: string, name: string): Promise<string> => {
    const res = await call(token, 'POST', '/register', { json: { name } });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    return res.json.id;
  };
  const onPool = async (ws: string, poolId: string) => {
    const res = await f.api.patch(
      `${P}/workspaces/${ws}`,
      { data: { type: 'workspaces', attributes: { 'execution-mode': 'agent', 'agent-pool-id': poolId } } },
      { token: f.owner.token },
    );
    expect(res.status, res.text).toBe(200);
  };
  const agentDoc = async (id: string) => (await f.api.get(`${P}/agents/${id}`, { token: f.owner.token })).body.data;
  const run = async (id: string) => (await f.api.get(`${P}/runs/${id}`, { token: f.owner.token })).body.data;

  beforeEach(async () => {
    clock = new TestClock();
    f = await accessFixture(await TestApi.create({ settings: EXECUTING, clock }));
    pool = await createAgentPool(f.api, 'acme', 'builders');
    otherPool = await createAgentPool(f.api, 'acme', 'others');
    await onPool(f.web, pool);
  });
  afterEach(() => f.api.close());

  it('registers an agent, which the Agents API shows with its pings', async () => {
    const token = await newToken(pool);
    const reg = await call(token, 'POST', '/register', { json: { name: 'builder-1' } });
    expect(reg.status).toBe(201);
    expect(reg.json).toEqual({
      id: expect.stringMatching(/^agent-[A-Za-z0-9]{16}$/),
      name: 'builder-1',
      'agent-pool': { id: pool, name: 'builders' },
      'ping-interval-ms': 5000,
    });
    const id = reg.json.id;
    expect(await agentDoc(id)).toEqual({
      id,
      type: 'agents',
      attributes: { name: 'builder-1', status: 'idle', 'ip-address': null, 'last-ping-at': clock.now().toISOString() },
      relationships: {
        'agent-pool': { data: { type: 'agent-pools', id: pool }, links: { related: `${P}/agent-pools/${pool}` } },
      },
      links: { self: `${P}/agents/${id}` },
    });
    clock.advance(4000);
    expect((await call(token, 'POST', '/ping', { agent: id, json: { status: 'busy' } })).json).toEqual({
      id,
      status: 'busy',
    });
    expect((await agentDoc(id)).attributes).toMatchObject({
      status: 'busy',
      'last-ping-at': clock.now().toISOString(),
    });
    const since = (at: string) =>
      f.api.get(`${P}/agent-pools/${pool}/agents?filter%5Blast-ping-since%5D=${encodeURIComponent(at)}`, {
        token: f.owner.token,
      });
    expect((await since(clock.now().toISOString())).body.data.map((a: any) => a.id)).toEqual([id]);
    expect((await since(new Date(clock.epochMs + 1).toISOString())).body.data).toEqual([]);
    // A clean stop: exited.
    await call(token, 'POST', '/ping', { agent: id, json: { status: 'exited' } });
    expect((await agentDoc(id)).attributes.status).toBe('exited');
    // Bad input: a clear 4xx.
    expect((await call(token, 'POST', '/register', { json: { name: 'no spaces allowed' } })).status).toBe(422);
    expect((await call(token, 'POST', '/ping', { agent: id, json: { status: 'dancing' } })).status).toBe(422);
    expect((await call(token, 'POST', '/ping', { json: { status: 'idle' } })).status).toBe(404);
  });

  it('takes agent tokens only, and an agent token does nothing else', async () => {
    const token = await newToken(pool);
    expect((await call(null, 'POST', '/register', { json: {} })).status).toBe(401);
    expect((await call(f.owner.token, 'POST', '/register', { json: {} })).status).toBe(401);
    expect((await call(f.api.adminToken, 'POST', '/claim')).status).toBe(401);
    expect((await call('berth.nonsense.token', 'POST', '/claim')).status).toBe(401);
    for (const path of [
      '/account/details',
      `/agent-pools/${pool}`,
      `/workspaces/${f.web}`,
      `/agent-pools/${pool}/agents`,
    ])
      expect((await f.api.get(`${P}${path}`, { token })).status, path).toBe(401);
    const member = await teamMember(f, 'devs', { 'manage-workspaces': true });
    expect((await call(member.token, 'POST', '/register', { json: {} })).status).toBe(401);
  });

  it('executes a run of the pool through the protocol', async () => {
    const token = await newToken(pool);
    const agent = await register(token, 'builder-1');
    const cv = await newConfiguration(f, f.web);
    const queued = await queueRun(f, f.web, { 'auto-apply': true });
    // serve's executor takes remote runs only: this one waits for an agent.
    expect(await claimRun(f.api.store.db, 'serve', clock.now().toISOString())).toBeNull();

    const claimed = await call(token, 'POST', '/claim', { agent });
    expect(claimed.status).toBe(200);
    expect(claimed.json.claim).toMatchObject({ runId: queued.id, phase: 'plan', configurationVersionId: cv.id });
    expect((await agentDoc(agent)).attributes.status).toBe('busy');
    expect((await call(token, 'POST', '/claim', { agent })).json).toEqual({ claim: null });

    const config = await call(token, 'GET', `/configuration-versions/${cv.id}`, { agent });
    expect(config.status).toBe(200);
    expect(config.bytes.equals(ARCHIVE)).toBe(true);
    expect((await call(token, 'GET', `/runs/${queued.id}/state`, { agent })).status).toBe(204);
    expect((await call(token, 'GET', `/runs/${queued.id}/stop`, { agent })).json).toEqual({ stop: null });
    const log = await call(token, 'POST', `/runs/${queued.id}/logs/plan`, {
      agent,
      bytes: Buffer.from('Plan: 1 to add\n'),
    });
    expect(log.status).toBe(204);
    // The saved plan goes up while planning; it is read back by the apply only.
    const saved = Buffer.from('PK\x03\x04 a saved plan');
    expect((await call(token, 'PUT', `/runs/${queued.id}/plan`, { agent, bytes: saved })).status).toBe(204);
    expect((await call(token, 'GET', `/runs/${queued.id}/plan`, { agent })).status).toBe(409);
    // The JSON plan and the provider schemas go up in one body, the plan's `plan-bytes` first.
    const planJson = Buffer.from('{"format_version":"1.2","resource_changes":[]}');
    const both = Buffer.concat([planJson, Buffer.from('{"format_version":"1.0","provider_schemas":{}}')]);
    const putJson = (split: string | number) =>
      call(token, 'PUT', `/runs/${queued.id}/plan-json?plan-bytes=${split}`, { agent, bytes: both });
    expect((await putJson('x')).status).toBe(400);
    expect((await putJson(both.length + 1)).status).toBe(400);
    expect((await putJson(planJson.length - 1)).status).toBe(400);
    expect((await putJson(planJson.length)).status).toBe(204);
    const finished = await call(token, 'POST', `/runs/${queued.id}/finish/plan`, {
      agent,
      json: { outcome: 'finished', hasChanges: true, counts: { additions: 1, changes: 0, destructions: 0 } },
    });
    expect(finished.status).toBe(204);
    expect((await run(queued.id)).attributes.status).toBe('apply_queued');

    const apply = await call(token, 'POST', '/claim', { agent });
    expect(apply.json.claim).toMatchObject({ runId: queued.id, phase: 'apply' });
    const download = await call(token, 'GET', `/runs/${queued.id}/plan`, { agent });
    expect(download.status).toBe(200);
    expect(download.bytes.equals(saved)).toBe(true);
    // Not planning any more: no plan goes up now, and no JSON plan.
    expect((await call(token, 'PUT', `/runs/${queued.id}/plan`, { agent, bytes: saved })).status).toBe(409);
    expect((await putJson(planJson.length)).status).toBe(409);
    const state = Buffer.from(
      JSON.stringify({
        version: 4,
        terraform_version: '1.10.0',
        serial: 1,
        lineage: 'l-1',
        outputs: {},
        resources: [],
      }),
    );
    expect((await call(token, 'PUT', `/runs/${queued.id}/state`, { agent, bytes: state })).status).toBe(204);
    expect(
      (await call(token, 'POST', `/runs/${queued.id}/finish/apply`, { agent, json: { outcome: 'finished' } })).status,
    ).toBe(204);
    expect((await run(queued.id)).attributes.status).toBe('applied');
    // The run ended: its saved plan is gone, its JSON plan is not.
    expect(await f.api.store.db.selectFrom('saved_plans').selectAll().execute()).toEqual([]);
    const json = await f.api.get(`${P}/plans/plan-${queued.id.slice(4)}/json-output`, { token: f.owner.token });
    expect(json.status, json.text).toBe(200);
    expect(json.text).toBe(planJson.toString());
    const ws = (await f.api.get(`${P}/workspaces/${f.web}`, { token: f.owner.token })).body.data;
    expect(ws.attributes.locked).toBe(false);
    const current = await f.api.get(`${P}/workspaces/${f.web}/current-state-version`, { token: f.owner.token });
    expect(current.body.data.attributes.serial).toBe(1);
    // The run ended: its agent is told to stop whatever it still holds.
    expect((await call(token, 'GET', `/runs/${queued.id}/stop`, { agent })).json).toEqual({ stop: 'force' });
    expect(
      (await call(token, 'POST', `/runs/${queued.id}/finish/plan`, { agent, json: { outcome: 'nope' } })).status,
    ).toBe(400);
  });

  it("refuses another pool's token, another agent and another pool's run", async () => {
    const token = await newToken(pool);
    const otherToken = await newToken(otherPool);
    const agent = await register(token, 'a');
    const sibling = await register(token, 'b');
    const outsider = await register(otherToken, 'c');
    const cv = await newConfiguration(f, f.web);
    const queued = await queueRun(f, f.web);
    // The other pool's agent finds nothing to claim; ours does.
    expect((await call(otherToken, 'POST', '/claim', { agent: outsider })).json).toEqual({ claim: null });
    expect((await call(token, 'POST', '/claim', { agent })).json.claim.runId).toBe(queued.id);

    const attempts = (who: { token: string; agent: string }) => [
      call(who.token, 'GET', `/configuration-versions/${cv.id}`, { agent: who.agent }),
      call(who.token, 'GET', `/runs/${queued.id}/state`, { agent: who.agent }),
      call(who.token, 'GET', `/runs/${queued.id}/stop`, { agent: who.agent }),
      call(who.token, 'POST', `/runs/${queued.id}/logs/plan`, { agent: who.agent, bytes: Buffer.from('forged') }),
      call(who.token, 'PUT', `/runs/${queued.id}/state`, { agent: who.agent, bytes: Buffer.from('{}') }),
      call(who.token, 'PUT', `/runs/${queued.id}/plan`, { agent: who.agent, bytes: Buffer.from('forged') }),
      call(who.token, 'GET', `/runs/${queued.id}/plan`, { agent: who.agent }),
      call(who.token, 'POST', `/runs/${queued.id}/finish/plan`, { agent: who.agent, json: { outcome: 'errored' } }),
    ];
    for (const who of [
      { token: otherToken, agent: outsider },
      { token, agent: sibling },
      // Our agent named with the other pool's token, and the other pool's agent with ours.
      { token: otherToken, agent },
      { token, agent: outsider },
    ]) {
      for (const res of await Promise.all(attempts(who))) expect(res.status).toBe(404);
    }
    // Nothing changed: still planning, for our agent, with an empty log so far and no plan.
    expect(await f.api.store.db.selectFrom('saved_plans').selectAll().execute()).toEqual([]);
    const r = await run(queued.id);
    expect(r.attributes.status).toBe('planning');
    expect((await call(token, 'GET', `/runs/${queued.id}/stop`, { agent })).json).toEqual({ stop: null });

    // A run of a workspace that left the pool is no longer the agent's.
    await onPool(f.web, otherPool);
    expect((await call(token, 'GET', `/runs/${queued.id}/stop`, { agent })).status).toBe(404);
  });

  it('never gives an agent a remote run', async () => {
    const remote = await f.api.post(
      `${P}/organizations/acme/workspaces`,
      { data: { type: 'workspaces', attributes: { name: 'remote-one' } } },
      { token: f.owner.token },
    );
    const ws = remote.body.data.id;
    await newConfiguration(f, ws);
    const queued = await queueRun(f, ws);
    const token = await newToken(pool);
    const agent = await register(token, 'a');
    expect((await call(token, 'POST', '/claim', { agent })).json).toEqual({ claim: null });
    expect((await claimRun(f.api.store.db, 'serve', clock.now().toISOString()))?.runId).toBe(queued.id);
  });

  it('marks a silent agent exited and ends its runs errored, the workspace unlocked', async () => {
    const token = await newToken(pool);
    const agent = await register(token, 'builder-7');
    const live = await register(token, 'builder-8');
    await newConfiguration(f, f.web);
    const queued = await queueRun(f, f.web);
    expect((await call(token, 'POST', '/claim', { agent })).json.claim.runId).toBe(queued.id);

    // Within the timeout nothing happens, whoever pings.
    clock.advance(TIMEOUT_MS);
    expect(await sweepAgents(f.api.store.db, clock.now(), TIMEOUT_MS)).toEqual({ agents: [], runs: [] });
    clock.advance(1);
    // The live agent's ping sweeps: the silent one is gone.
    expect((await call(token, 'POST', '/ping', { agent: live, json: { status: 'idle' } })).status).toBe(200);
    expect((await agentDoc(agent)).attributes.status).toBe('exited');
    expect((await agentDoc(live)).attributes.status).toBe('idle');
    const r = await run(queued.id);
    expect(r.attributes.status).toBe('errored');
    expect(r.attributes['error-message']).toMatch(/the agent builder-7 stopped responding/);
    const plan = await f.api.get(`${P}/plans/${r.relationships.plan.data.id}`, { token: f.owner.token });
    const logUrl = new URL(plan.body.data.attributes['log-read-url'] as string, 'http://berth.test');
    const log = await f.api.app.fetch(new Request(`http://berth.test${logUrl.pathname}${logUrl.search}`));
    expect(await log.text()).toContain('the agent builder-7 stopped responding');
    const ws = (await f.api.get(`${P}/workspaces/${f.web}`, { token: f.owner.token })).body.data;
    expect(ws.attributes.locked).toBe(false);

    // The gone agent is told so (it registers again), and may not touch its old run.
    const late = await call(token, 'POST', '/ping', { agent, json: { status: 'busy' } });
    expect(late.status).toBe(409);
    expect(late.json.errors[0].detail).toMatch(/register again/);
    expect((await call(token, 'POST', `/runs/${queued.id}/logs/plan`, { agent, bytes: Buffer.from('x') })).status).toBe(
      409,
    );
  });

  it("keeps a busy agent's runs alive while it pings", async () => {
    const token = await newToken(pool);
    const agent = await register(token, 'steady');
    await newConfiguration(f, f.web);
    const queued = await queueRun(f, f.web);
    await call(token, 'POST', '/claim', { agent });
    for (let i = 0; i < 4; i++) {
      clock.advance(TIMEOUT_MS - 1000);
      const ping = await call(token, 'POST', '/ping', { agent, json: { status: 'busy', runs: [queued.id] } });
      expect(ping.status).toBe(200);
    }
    expect(await sweepAgents(f.api.store.db, clock.now(), TIMEOUT_MS)).toEqual({ agents: [], runs: [] });
    expect(await recoverInterrupted(f.api.store.db, clock.now(), TIMEOUT_MS)).toEqual([]);
    expect((await run(queued.id)).attributes.status).toBe('planning');
    expect((await call(token, 'POST', '/ping', { agent, json: { status: 'busy', runs: 'all' } })).status).toBe(400);
  });

  it('keeps alive only the runs an agent says it executes', async () => {
    const token = await newToken(pool);
    const agent = await register(token, 'forgetful');
    await newConfiguration(f, f.web);
    const queued = await queueRun(f, f.web);
    await call(token, 'POST', '/claim', { agent });
    // The agent lost track of its run (its end could not be reported): its pings no longer name it.
    for (let i = 0; i < 3; i++) {
      clock.advance(TIMEOUT_MS - 1000);
      expect((await call(token, 'POST', '/ping', { agent, json: { status: 'idle', runs: [] } })).status).toBe(200);
    }
    // The agent is alive; the run is not: serve's own recovery of silent runs ends it.
    expect(await sweepAgents(f.api.store.db, clock.now(), TIMEOUT_MS)).toEqual({ agents: [], runs: [] });
    expect(await recoverInterrupted(f.api.store.db, clock.now(), TIMEOUT_MS)).toEqual([queued.id]);
    expect((await run(queued.id)).attributes['error-message']).toMatch(/its executor \(agent-\S+\) stopped/);
  });
});
