import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { claimRun } from '../../../src/services/runs/run-claim.js';
import { accessFixture, grantWorkspace, teamMember, type AccessFixture } from '../../helpers/access.js';
import { TestApi } from '../../helpers/api.js';
import { TestClock } from '../../helpers/clock.js';
import { EXECUTING, finish, newConfiguration, P, queueRun } from '../../helpers/run-execution.js';
import { createAgentPool } from '../../helpers/workspaces.js';

/**
 * berth's `executed-by` on an executed run (issue 36): null until a phase is claimed, then the
 * executor of its last claimed phase, `serve` (its executor name, with the host name and pid, to
 * site administrators only: issue 43) or `agent` (the agent's name, id and pool), on the run's
 * document and in its workspace's list.
 */
describe('executed-by on runs berth executes', () => {
  let f: AccessFixture;
  let clock: TestClock;
  let pool: string;
  let api: string;

  const agentCall = async (token: string, path: string, json: unknown, agent?: string) => {
    const headers: Record<string, string> = { Authorization: `Bearer ${token}`, 'Content-Type': 'application/json' };
    if (agent) headers['X-Berth-Agent'] = agent;
    const res = await f.api.app.fetch(
      new Request(`http://berth.test/api/agent${path}`, { method: 'POST', headers, body: JSON.stringify(json) }),
    );
    return { status: res.status, json: (await res.json().catch(() => null)) as any };
  };
  const agentToken = async (poolId: string): Promise<string> => {
    const res = await f.api.post(
      `${P}/agent-pools/${poolId}/authentication-tokens`,
      { data: { type: 'authentication-tokens', attributes: { description: 'test' } } },
      { token: f.owner.token },
    );
    expect(res.status, res.text).toBe(201);
    return res.body.data.attributes.token;
  };
  const register = async (token: string, name: string): Promise<string> => {
    const res = await agentCall(token, '/register', { name });
    expect(res.status, JSON.stringify(res.json)).toBe(201);
    return res.json.id;
  };
  const setMode = async (ws: string, attributes: Record<string, unknown>) => {
    const res = await f.api.patch(
      `${P}/workspaces/${ws}`,
      { data: { type: 'workspaces', attributes } },
      {
        token: f.owner.token,
      },
    );
    expect(res.status, res.text).toBe(200);
  };
  const shown = async (id: string, token = f.owner.token) => {
    const res = await f.api.get(`${P}/runs/${id}`, { token });
    expect(res.status, res.text).toBe(200);
    return res.body.data.attributes['executed-by'];
  };
  /** As a site administrator reads it (the test API's own token). */
  const shownToAdmin = async (id: string) => {
    const res = await f.api.get(`${P}/runs/${id}`);
    expect(res.status, res.text).toBe(200);
    return res.body.data.attributes['executed-by'];
  };
  const listed = async (ws: string, token = f.owner.token) => {
    const res = await f.api.get(`${P}/workspaces/${ws}/runs`, { token });
    expect(res.status, res.text).toBe(200);
    return Object.fromEntries(res.body.data.map((r: any) => [r.id, r.attributes['executed-by']]));
  };
  const at = () => clock.now().toISOString();

  beforeEach(async () => {
    clock = new TestClock();
    f = await accessFixture(await TestApi.create({ settings: EXECUTING, clock }));
    pool = await createAgentPool(f.api, 'acme', 'builders');
    const created = await f.api.post(
      `${P}/organizations/acme/workspaces`,
      { data: { type: 'workspaces', attributes: { name: 'api', 'execution-mode': 'remote' } } },
      { token: f.owner.token },
    );
    expect(created.status, created.text).toBe(201);
    api = created.body.data.id;
    await setMode(f.web, { 'execution-mode': 'agent', 'agent-pool-id': pool });
  });
  afterEach(() => f.api.close());

  it('null until claimed; then serve and, to site administrators, its executor name: the executor of the last phase', async () => {
    await newConfiguration(f, api);
    const run = await queueRun(f, api);
    expect(run.attributes['executed-by']).toBeNull();
    expect(await shown(run.id)).toBeNull();

    const claimed = await claimRun(f.api.store.db, 'serve-host-a-101-0a0b0c0d', at());
    expect(claimed?.runId).toBe(run.id);
    const serve = (name: string | null) => ({ kind: 'serve', name, 'agent-id': null, 'agent-pool-id': null });
    expect(await shownToAdmin(run.id)).toEqual(serve('serve-host-a-101-0a0b0c0d'));
    // The host name and pid are for site administrators: the run's owner sees that serve executed it.
    expect(await shown(run.id)).toEqual(serve(null));
    await finish(f, run.id, 'plan');
    const apply = await f.api.post(`${P}/runs/${run.id}/actions/apply`, {}, { token: f.owner.token });
    expect(apply.status, apply.text).toBe(202);
    // Another serve instance (sharing the database) applies it: the run names the last one.
    expect((await claimRun(f.api.store.db, 'serve-host-b-202-0e0f1011', at()))?.phase).toBe('apply');
    await finish(f, run.id, 'apply');
    expect(await shownToAdmin(run.id)).toEqual(serve('serve-host-b-202-0e0f1011'));
    expect(await shown(run.id)).toEqual(serve(null));
    expect(await listed(api)).toEqual({ [run.id]: serve(null) });
    const adminList = await f.api.get(`${P}/workspaces/${api}/runs`);
    expect(adminList.body.data[0].attributes['executed-by']).toEqual(serve('serve-host-b-202-0e0f1011'));
    // A reader of the workspace, too, sees only that serve executed it.
    const reader = await teamMember(f, 'serve-readers');
    await grantWorkspace(f, reader.teamId, api, 'read');
    expect(await shown(run.id, reader.token)).toEqual(serve(null));
    expect(
      JSON.stringify((await f.api.get(`${P}/workspaces/${api}/runs`, { token: reader.token })).body),
    ).not.toContain('serve-host-b');
  });

  it("agent: the agent's name, id and pool, each run of a page its own; readers see it too", async () => {
    const token = await agentToken(pool);
    const one = await register(token, 'builder-1');
    const two = await register(token, 'builder-2');
    await newConfiguration(f, f.web);
    const first = await queueRun(f, f.web, { 'plan-only': true });
    const claimedOne = await agentCall(token, '/claim', {}, one);
    expect(claimedOne.json.claim).toMatchObject({ runId: first.id, phase: 'plan' });
    await finish(f, first.id, 'plan');
    const second = await queueRun(f, f.web, { 'plan-only': true });
    const waiting = await queueRun(f, f.web, { 'plan-only': true });
    const claimedTwo = await agentCall(token, '/claim', {}, two);
    expect(claimedTwo.json.claim).toMatchObject({ runId: second.id, phase: 'plan' });

    const byAgent = (id: string, name: string) => ({ kind: 'agent', name, 'agent-id': id, 'agent-pool-id': pool });
    expect(await shown(first.id)).toEqual(byAgent(one, 'builder-1'));
    expect(await listed(f.web)).toEqual({
      [first.id]: byAgent(one, 'builder-1'),
      [second.id]: byAgent(two, 'builder-2'),
      [waiting.id]: null,
    });

    // A reader of the workspace sees where its runs executed, though the agents are not theirs to read.
    const reader = await teamMember(f, 'readers');
    await grantWorkspace(f, reader.teamId, f.web, 'read');
    expect(await shown(second.id, reader.token)).toEqual(byAgent(two, 'builder-2'));
    expect((await f.api.get(`${P}/agents/${two}`, { token: reader.token })).status).toBe(404);
    // Someone who cannot read the run learns nothing of it.
    const outsider = await teamMember(f, 'outsiders');
    expect((await f.api.get(`${P}/runs/${second.id}`, { token: outsider.token })).status).toBe(404);
  });

  it('an agent whose pool was deleted since is named by its id', async () => {
    const token = await agentToken(pool);
    const agent = await register(token, 'builder-1');
    await newConfiguration(f, f.web);
    const run = await queueRun(f, f.web, { 'plan-only': true });
    expect((await agentCall(token, '/claim', {}, agent)).json.claim).toMatchObject({ runId: run.id });
    await finish(f, run.id, 'plan');
    await setMode(f.web, { 'execution-mode': 'remote', 'agent-pool-id': null });
    const del = await f.api.delete(`${P}/agent-pools/${pool}`, { token: f.owner.token });
    expect(del.status, del.text).toBe(204);
    expect(await shown(run.id)).toEqual({ kind: 'agent', name: agent, 'agent-id': agent, 'agent-pool-id': null });
  });
});
