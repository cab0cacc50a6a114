import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { finishPhase } from '../../../src/services/runs/run-phases.js';
import { claimRouteOf, claimRun } from '../../../src/services/runs/run-claim.js';
import { TestApi } from '../../helpers/api.js';
import { ARCHIVE, cvBody, EXECUTING, P, runBody, sendBytes } from '../../helpers/run-execution.js';
import { createAgentPool, createWorkspace } from '../../helpers/workspaces.js';

/**
 * The executor's claim (services/runs/run-claim.ts): a fair share across organizations (issue 32:
 * one tenant's queued runs do not delay another's beyond the executor's share), first queued first
 * claimed within an organization, and only the runs the claimer executes by the workspace's
 * effective execution mode (remote for serve, agent on its pool for an agent, local never).
 * Every claim and phase end is a direct call, so the order is exact.
 */
describe('claiming queued runs', () => {
  let api: TestApi;
  beforeEach(async () => {
    api = await TestApi.create({ settings: EXECUTING });
  });
  afterEach(() => api.close());

  const now = () => new Date().toISOString();
  const db = () => api.store.db;

  /** A workspace of `org` with an uploaded configuration. */
  async function workspace(org: string, name: string, attributes: Record<string, unknown> = {}, rel?: any) {
    const ws = (await createWorkspace(api, org, { name, ...attributes }, rel)).body.data.id as string;
    const cv = await api.post(`${P}/workspaces/${ws}/configuration-versions`, cvBody({ 'auto-queue-runs': false }));
    expect(cv.status, cv.text).toBe(201);
    const up = await sendBytes(api.app, 'PUT', cv.body.data.attributes['upload-url'], ARCHIVE);
    expect(up.status, up.text).toBe(200);
    return ws;
  }

  async function queue(ws: string): Promise<string> {
    const res = await api.post(`${P}/runs`, runBody(ws));
    expect(res.status, res.text).toBe(201);
    return res.body.data.id;
  }

  async function status(run: string): Promise<string> {
    return (await api.get(`${P}/runs/${run}`)).body.data.attributes.status;
  }

  /** Ends a claimed plan without changes (the run is final, its slot free). */
  const finishPlan = (run: string) => finishPhase(db(), run, 'plan', { outcome: 'finished', hasChanges: false }, now());

  const claimed = async (executor = 'serve', target?: { agentPoolId: string }) =>
    (await claimRun(db(), executor, now(), target))?.runId ?? null;

  it("another organization's run goes next after one of the first organization's ten, not after all ten", async () => {
    expect((await api.createOrg('tenant-a')).status).toBe(201);
    expect((await api.createOrg('tenant-b')).status).toBe(201);
    const aRuns: string[] = [];
    for (let i = 0; i < 10; i++) aRuns.push(await queue(await workspace('tenant-a', `a-${i}`)));
    const bRun = await queue(await workspace('tenant-b', 'b-0'));
    for (const run of [...aRuns, bRun]) expect(await status(run)).toBe('plan_queued');

    // Two slots. The first claim: nobody executes anything, A's run is the oldest queued.
    expect(await claimed()).toBe(aRuns[0]);
    // The second: A executes one, B none: B goes before A's nine others.
    expect(await claimed()).toBe(bRun);
    // A slot frees: A executes none, B one: A, first queued first.
    await finishPlan(aRuns[0]);
    expect(await claimed()).toBe(aRuns[1]);
    // Both busy alike (one each): the oldest queued, A's.
    await finishPlan(bRun);
    expect(await claimed()).toBe(aRuns[2]);
    // Then only A has queued runs: they go in the order queued.
    const order: string[] = [];
    for (;;) {
      const next = await claimed();
      if (!next) break;
      order.push(next);
    }
    expect(order).toEqual(aRuns.slice(3));
    for (const run of aRuns.slice(1)) expect(await status(run)).toBe('planning');
  });

  it('a busier organization waits for one with fewer executing phases, whatever their ages', async () => {
    expect((await api.createOrg('busy')).status).toBe(201);
    expect((await api.createOrg('quiet')).status).toBe(201);
    const busy: string[] = [];
    for (let i = 0; i < 4; i++) busy.push(await queue(await workspace('busy', `w-${i}`)));
    const quiet = [await queue(await workspace('quiet', 'q-0')), await queue(await workspace('quiet', 'q-1'))];
    expect(await claimed()).toBe(busy[0]);
    expect(await claimed()).toBe(quiet[0]);
    expect(await claimed()).toBe(busy[1]);
    // busy executes two, quiet one: quiet's younger run goes before busy's older ones.
    expect(await claimed()).toBe(quiet[1]);
    expect(await claimed()).toBe(busy[2]);
    // Ending quiet's two leaves it with no queued run: busy's last goes on.
    await finishPlan(quiet[0]);
    await finishPlan(quiet[1]);
    expect(await claimed()).toBe(busy[3]);
    expect(await claimed()).toBeNull();
  });

  it('claims remote runs for serve, agent runs for their pool only, and local runs never', async () => {
    expect((await api.createOrg('modes')).status).toBe(201);
    const pool = await createAgentPool(api, 'modes', 'builders');
    const other = await createAgentPool(api, 'modes', 'others');
    // A project whose default is agent on the pool; the organization's default becomes local.
    const project = await api.post(`${P}/organizations/modes/projects`, {
      data: {
        type: 'projects',
        attributes: { name: 'on-agents', 'default-execution-mode': 'agent' },
        relationships: { 'default-agent-pool': { data: { type: 'agent-pools', id: pool } } },
      },
    });
    expect(project.status, project.text).toBe(201);
    const inheritAll = { 'setting-overwrites': { 'execution-mode': false, 'agent-pool': false } };
    const ws = {
      localOwn: await workspace('modes', 'local-own', { 'execution-mode': 'local' }),
      localOrg: await workspace('modes', 'local-org', inheritAll),
      agentOwn: await workspace('modes', 'agent-own', { 'execution-mode': 'agent', 'agent-pool-id': pool }),
      agentProject: await workspace('modes', 'agent-project', inheritAll, {
        project: { data: { type: 'projects', id: project.body.data.id } },
      }),
      otherPool: await workspace('modes', 'other-pool', { 'execution-mode': 'agent', 'agent-pool-id': other }),
      remoteOwn: await workspace('modes', 'remote-own', { 'execution-mode': 'remote' }),
    };
    const run: Record<Exclude<keyof typeof ws, 'localOwn'>, string> = {} as never;
    for (const key of Object.keys(ws) as (keyof typeof ws)[]) if (key !== 'localOwn') run[key] = await queue(ws[key]);
    // A workspace in local mode takes no run at all: it would wait forever, holding the lock (422).
    const refused = await api.post(`${P}/runs`, runBody(ws.localOwn));
    expect(refused.status, refused.text).toBe(422);
    expect(refused.text).toContain('execution mode is local');
    expect((await api.get(`${P}/workspaces/${ws.localOwn}`)).body.data.attributes.locked).toBe(false);
    expect(await db().selectFrom('runs').select('id').where('workspace_id', '=', ws.localOwn).execute()).toEqual([]);
    // The organization's default becomes local after local-org's run was queued: it waits.
    const org = await api.patch(`${P}/organizations/modes`, {
      data: { type: 'organizations', attributes: { 'default-execution-mode': 'local' } },
    });
    expect(org.status, org.text).toBe(200);

    // serve takes the remote run only, though the local and agent runs are older.
    expect(await claimed('serve')).toBe(run.remoteOwn);
    expect(await claimed('serve')).toBeNull();
    // An agent of the pool takes the runs of its workspaces, own setting or inherited, in order.
    expect(await claimed('agent-1', { agentPoolId: pool })).toBe(run.agentOwn);
    expect(await claimed('agent-1', { agentPoolId: pool })).toBe(run.agentProject);
    expect(await claimed('agent-1', { agentPoolId: pool })).toBeNull();
    expect(await claimed('agent-2', { agentPoolId: other })).toBe(run.otherPool);
    expect(await claimed('agent-2', { agentPoolId: other })).toBeNull();
    // The run of the workspace now local stays queued: nobody claims it.
    expect(await status(run.localOrg)).toBe('plan_queued');
    const rows = await db().selectFrom('runs').select(['id', 'claimed_by']).execute();
    const by = Object.fromEntries(rows.map((r) => [r.id, r.claimed_by]));
    expect([run.remoteOwn, run.agentOwn, run.agentProject, run.otherPool, run.localOrg].map((r) => by[r])).toEqual([
      'serve',
      'agent-1',
      'agent-1',
      'agent-2',
      null,
    ]);

    // Why each workspace's runs are (not) picked up by serve.
    const routes = Object.fromEntries(
      await Promise.all(Object.entries(ws).map(async ([k, id]) => [k, await claimRouteOf(db(), id)] as const)),
    );
    expect(routes.remoteOwn).toEqual({
      execution: { mode: 'remote', agentPoolId: null, source: 'workspace' },
      reason: null,
    });
    expect(routes.localOwn!.reason).toMatch(/execution mode is local \(its own setting\)/);
    expect(routes.localOrg!.reason).toMatch(/execution mode is local \(inherited from its organization\)/);
    expect(routes.agentProject).toMatchObject({ execution: { mode: 'agent', agentPoolId: pool, source: 'project' } });
    expect(routes.agentProject!.reason).toContain(`an agent of pool ${pool}`);
    expect(await claimRouteOf(db(), 'ws-doesnotexist0000')).toBeNull();

    // The organization's default turns remote: the inheriting workspace's run is serve's at once.
    const remote = await api.patch(`${P}/organizations/modes`, {
      data: { type: 'organizations', attributes: { 'default-execution-mode': 'remote' } },
    });
    expect(remote.status, remote.text).toBe(200);
    expect(await claimed('serve')).toBe(run.localOrg);
    expect(await claimed('serve')).toBeNull();
  });

  it('a workspace unlocked by its holder moves on, however many locked workspaces have runs waiting', async () => {
    expect((await api.createOrg('busy')).status).toBe(201);
    const lock = async (ws: string) =>
      expect((await api.post(`${P}/workspaces/${ws}/actions/lock`, { reason: 'held' })).status).toBe(200);
    // More locked workspaces with a pending run than the queue pass looks at in one go, queued first.
    for (let i = 0; i < 101; i++) {
      const ws = await workspace('busy', `held-${i}`);
      await lock(ws);
      expect(await status(await queue(ws))).toBe('pending');
    }
    const freed = await workspace('busy', 'freed');
    await lock(freed);
    const run = await queue(freed);
    expect(await status(run)).toBe('pending');
    expect(await claimed()).toBeNull();
    expect((await api.post(`${P}/workspaces/${freed}/actions/unlock`)).status).toBe(200);
    expect(await claimed()).toBe(run);
    expect(await status(run)).toBe('planning');
  });
});
