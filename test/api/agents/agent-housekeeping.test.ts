import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createApp } from '../../../src/api/app.js';
import { pruneStoppedAgents, sweepAgents, watchAgents } from '../../../src/services/agents/agent-liveness.js';
import { accessFixture, teamMember, type AccessFixture } from '../../helpers/access.js';
import { TestApi } from '../../helpers/api.js';
import { TestClock } from '../../helpers/clock.js';
import { EXECUTING, newConfiguration, P, queueRun, workspaceDoc } from '../../helpers/run-execution.js';
import { createAgentPool, createAgentToken } from '../../helpers/workspaces.js';

/**
 * Agents' housekeeping: pool managers delete agents that stopped (`DELETE /agents/:id`), serve
 * deletes those stopped for longer than the retention, the agent protocol is rate-limited per
 * agent token, and registrations and clean exits are audited. Driven with a TestClock.
 */

const TIMEOUT_MS = 30_000;
const DAY_MS = 24 * 60 * 60_000;

describe('agent housekeeping', () => {
  let f: AccessFixture;
  let clock: TestClock;
  let pool: string;
  let token: string;

  const call = async (
    app: { fetch(r: Request): Response | Promise<Response> },
    method: string,
    path: string,
    options: { agent?: string; json?: unknown; token?: string } = {},
  ) => {
    const headers: Record<string, string> = { Authorization: `Bearer ${options.token ?? token}` };
    if (options.agent) headers['X-Berth-Agent'] = options.agent;
    let body: string | undefined;
    if (options.json !== undefined) {
      headers['Content-Type'] = 'application/json';
      body = JSON.stringify(options.json);
    }
    const res = await app.fetch(new Request(`http://berth.test/api/agent${path}`, { method, headers, body }));
    const text = await res.text();
    return { status: res.status, headers: res.headers, json: text ? JSON.parse(text) : null };
  };
  const protocol = (method: string, path: string, options: { agent?: string; json?: unknown } = {}) =>
    call(f.api.app, method, path, options);
  const register = async (name: string): Promise<string> => {
    const res = await protocol('POST', '/register', { json: { name } });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    return res.json.id;
  };
  const ping = (agent: string, status: string) => protocol('POST', '/ping', { agent, json: { status } });
  const agentIds = async () =>
    (await f.api.get(`${P}/agent-pools/${pool}/agents`, { token: f.owner.token })).body.data.map((a: any) => a.id);
  const agentCount = async () =>
    (await f.api.get(`${P}/agent-pools/${pool}`, { token: f.owner.token })).body.data.attributes['agent-count'];
  const del = (id: string, as = f.owner.token) => f.api.delete(`${P}/agents/${id}`, { token: as });
  const auditOf = (action: string) =>
    f.api.store.db.selectFrom('audit_events').selectAll().where('action', '=', action).orderBy('seq').execute();

  beforeEach(async () => {
    clock = new TestClock();
    f = await accessFixture(await TestApi.create({ settings: EXECUTING, clock }));
    pool = await createAgentPool(f.api, 'acme', 'builders');
    token = await createAgentToken(f.api, pool, f.owner.token);
    const ws = await f.api.patch(
      `${P}/workspaces/${f.web}`,
      { data: { type: 'workspaces', attributes: { 'execution-mode': 'agent', 'agent-pool-id': pool } } },
      { token: f.owner.token },
    );
    expect(ws.status, ws.text).toBe(200);
  });
  afterEach(() => f.api.close());

  it('deletes an exited agent (204, audited); refuses an idle or busy one (409) and others (404)', async () => {
    const idle = await register('idle-one');
    const busy = await register('busy-one');
    const gone = await register('gone-one');
    expect((await ping(busy, 'busy')).status).toBe(200);
    expect((await ping(gone, 'exited')).status).toBe(200);

    for (const [id, status] of [
      [idle, 'idle'],
      [busy, 'busy'],
    ]) {
      const refused = await del(id);
      expect(refused.status).toBe(409);
      expect(refused.body.errors[0].detail).toContain(`is ${status}: only an agent that is exited, errored or unknown`);
    }
    // A member without manage-agent-pools, and an unknown id: 404, as if it did not exist.
    const member = await teamMember(f, 'readers');
    expect((await del(gone, member.token)).status).toBe(404);
    expect((await del('agent-AAAAAAAAAAAAAAAA')).status).toBe(404);
    expect(await agentIds()).toEqual([idle, busy, gone]);

    const ok = await del(gone);
    expect(ok.status, ok.text).toBe(204);
    expect(await agentIds()).toEqual([idle, busy]);
    expect((await f.api.get(`${P}/agents/${gone}`, { token: f.owner.token })).status).toBe(404);
    expect((await del(gone)).status).toBe(404);
    expect(await agentCount()).toBe(2);
    const [record] = await auditOf('agent.delete');
    expect(record).toMatchObject({ target_type: 'agents', target_id: gone, target_name: 'gone-one' });
    expect(record.organization_name).toBe('acme');
    // A team with manage-agent-pools may delete, as HCP.
    const managers = await teamMember(f, 'managers', { 'manage-agent-pools': true });
    expect((await ping(idle, 'exited')).status).toBe(200);
    expect((await del(idle, managers.token)).status).toBe(204);
  });

  it('a run keeps naming the agent that executed it once the agent is deleted, by its id', async () => {
    const agent = await register('builder-1');
    await newConfiguration(f, f.web);
    const queued = await queueRun(f, f.web);
    expect((await protocol('POST', '/claim', { agent })).json.claim.runId).toBe(queued.id);
    const executedBy = async () =>
      (await f.api.get(`${P}/runs/${queued.id}`, { token: f.owner.token })).body.data.attributes['executed-by'];
    expect(await executedBy()).toMatchObject({ kind: 'agent', name: 'builder-1', 'agent-id': agent });
    // Silent past the timeout: exited, its run ended errored; then deleted.
    clock.advance(TIMEOUT_MS + 1);
    await sweepAgents(f.api.store.db, clock.now(), TIMEOUT_MS);
    expect((await del(agent)).status).toBe(204);
    const run = await f.api.get(`${P}/runs/${queued.id}`, { token: f.owner.token });
    expect(run.status).toBe(200);
    expect(run.body.data.attributes.status).toBe('errored');
    expect(run.body.data.attributes['executed-by']).toEqual({
      kind: 'agent',
      name: agent,
      'agent-id': agent,
      'agent-pool-id': null,
    });
    expect((await f.api.get(`${P}/workspaces/${f.web}/runs`, { token: f.owner.token })).status).toBe(200);
  });

  it('ends the run of an agent deleted before the sweep ended its runs (a sweep cut short)', async () => {
    const agent = await register('builder-2');
    await newConfiguration(f, f.web);
    const queued = await queueRun(f, f.web);
    expect((await protocol('POST', '/claim', { agent })).json.claim.runId).toBe(queued.id);
    // Marked exited, but serve stopped before it ended the agent's run; a manager deletes the agent.
    await f.api.store.db.updateTable('agents').set({ status: 'exited' }).where('id', '=', agent).execute();
    expect((await del(agent)).status).toBe(204);
    const runOf = async () => (await f.api.get(`${P}/runs/${queued.id}`, { token: f.owner.token })).body.data;
    expect((await runOf()).attributes.status).toBe('planning');

    const swept = await sweepAgents(f.api.store.db, clock.now(), TIMEOUT_MS);
    expect(swept.runs).toEqual([queued.id]);
    const run = await runOf();
    expect(run.attributes.status).toBe('errored');
    expect(run.attributes['error-message']).toContain(`its agent ${agent} was deleted while the run was planning`);
    expect((await workspaceDoc(f, f.web)).data.attributes.locked).toBe(false);
  });

  it('deletes agents stopped for longer than the retention; running ones and recent ones stay', async () => {
    const running = await register('running');
    const exited = await register('exited');
    const silent = await register('silent');
    expect((await ping(exited, 'exited')).status).toBe(200);
    // `silent` stops pinging: the sweep marks it exited, its last ping the time it was last heard.
    clock.advance(TIMEOUT_MS + 1);
    expect((await ping(running, 'idle')).status).toBe(200);
    expect((await f.api.get(`${P}/agents/${silent}`, { token: f.owner.token })).body.data.attributes.status).toBe(
      'exited',
    );
    // An errored agent (HCP's status; berth does not set it) goes the same way.
    const errored = await register('errored');
    await f.api.store.db.updateTable('agents').set({ status: 'errored' }).where('id', '=', errored).execute();
    expect(await agentCount()).toBe(1);

    // Within the retention nothing goes.
    clock.advance(DAY_MS - TIMEOUT_MS - 1);
    expect(await pruneStoppedAgents(f.api.store.db, clock.now(), DAY_MS)).toBe(0);
    expect(await agentIds()).toEqual([running, exited, silent, errored]);
    // A day after their last pings, the two stopped first go; the running one stays, pinging.
    clock.advance(1);
    expect((await ping(running, 'busy')).status).toBe(200);
    expect(await pruneStoppedAgents(f.api.store.db, clock.now(), DAY_MS)).toBe(2);
    expect(await agentIds()).toEqual([running, errored]);
    expect(await agentCount()).toBe(1);
    // `errored` registered TIMEOUT_MS + 1 after the others.
    clock.advance(TIMEOUT_MS + 1);
    expect((await ping(running, 'busy')).status).toBe(200);
    expect(await pruneStoppedAgents(f.api.store.db, clock.now(), DAY_MS)).toBe(1);
    expect(await agentIds()).toEqual([running]);
    expect(await agentCount()).toBe(1);

    // serve's liveness watch prunes too (its first sweep runs at once; stop waits for it).
    const last = await register('last');
    expect((await ping(last, 'exited')).status).toBe(200);
    clock.advance(DAY_MS + 1);
    expect((await ping(running, 'idle')).status).toBe(200);
    const lines: string[] = [];
    await watchAgents(
      f.api.store.db,
      () => clock.now(),
      TIMEOUT_MS,
      (l) => lines.push(l),
      DAY_MS,
    ).stop();
    expect(lines).toContain('agents: deleted 1 agents stopped for longer than the retention');
    expect(await agentIds()).toEqual([running]);
    // With a retention of 0, nothing is pruned (`running`, silent since, is only marked exited).
    clock.advance(2 * DAY_MS);
    await watchAgents(f.api.store.db, () => clock.now(), TIMEOUT_MS, undefined, 0).stop();
    expect(await agentIds()).toEqual([running]);
  });

  it('limits each agent token to its requests per second: 429 with Retry-After, the next window passes', async () => {
    const app = createApp({ db: f.api.store.db, settings: EXECUTING, clock, agentRateLimit: 3 });
    const limited = (method: string, path: string, options: { agent?: string; json?: unknown; token?: string } = {}) =>
      call(app, method, path, options);
    const reg = await limited('POST', '/register', { json: { name: 'fast' } });
    expect(reg.status).toBe(201);
    const agent = reg.json.id;
    expect((await limited('POST', '/ping', { agent, json: { status: 'idle' } })).status).toBe(200);
    expect((await limited('POST', '/claim', { agent })).status).toBe(200);
    const refused = await limited('POST', '/claim', { agent });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('1');
    expect(refused.headers.get('x-ratelimit-limit')).toBe('3');
    expect(refused.json.errors[0]).toMatchObject({ status: '429', title: 'Too many requests' });
    // Another token of the pool has its own budget.
    const other = await f.api.post(
      `${P}/agent-pools/${pool}/authentication-tokens`,
      { data: { type: 'authentication-tokens', attributes: { description: 'other' } } },
      { token: f.owner.token },
    );
    const second = other.body.data.attributes.token;
    expect((await limited('POST', '/register', { json: { name: 'other' }, token: second })).status).toBe(201);
    // The next second, the first token may call again.
    clock.advance(1000);
    expect((await limited('POST', '/claim', { agent })).status).toBe(200);
    // Without a limit (the app's default; serve sets one), nothing is refused.
    for (let i = 0; i < 10; i++) expect((await protocol('POST', '/claim', { agent })).status).toBe(200);
  });

  it('audits registrations and clean exits, the agent as actor and its pool as subject', async () => {
    const agent = await register('builder-9');
    expect((await ping(agent, 'idle')).status).toBe(200);
    expect((await ping(agent, 'exited')).status).toBe(200);
    const expected = {
      actor_kind: 'agent',
      actor_id: agent,
      actor_name: 'builder-9',
      target_type: 'agent-pools',
      target_id: pool,
      target_name: 'builders',
      organization_name: 'acme',
    };
    const registered = await auditOf('agent.register');
    const exited = await auditOf('agent.exit');
    expect(registered).toHaveLength(1);
    expect(exited).toHaveLength(1);
    expect(registered[0]).toMatchObject({ ...expected, occurred_at: clock.now().toISOString() });
    expect(registered[0].request_id).toEqual(expect.any(String));
    expect(exited[0]).toMatchObject(expected);
    // The organization reads them in its audit trail.
    const trail = await f.api.get(`${P}/organizations/acme/audit-trail`, { token: f.owner.token });
    expect(trail.status, trail.text).toBe(200);
    expect(trail.body.data.map((e: any) => e.attributes.action)).toEqual(
      expect.arrayContaining(['agent.register', 'agent.exit']),
    );
  });
});
