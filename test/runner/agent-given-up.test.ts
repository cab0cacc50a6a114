import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { startAgent, type RunningAgent } from '../../src/runner/agent.js';
import { sweepAgents } from '../../src/services/agents/agent-liveness.js';
import { accessFixture, type AccessFixture } from '../helpers/access.js';
import { TestApi } from '../helpers/api.js';
import { EXECUTING, P, queueRun, runStatus } from '../helpers/run-execution.js';
import {
  alive,
  runnableWorkspace,
  standInTerraform,
  unhandledRejections,
  type StandInTerraform,
} from '../helpers/stand-in-terraform.js';
import { createAgentPool, createAgentToken } from '../helpers/workspaces.js';

/**
 * `berth agent` frozen (SIGSTOP) past --agent-timeout, then resumed: berth gave it up meanwhile
 * (marked exited, its run ended errored), and the first call of the resumed agent to reach berth is
 * its run's next log write, answered 409 "register again". The rejection was left unhandled and
 * the agent died. It must stop that run's terraform, register again and go on executing runs.
 * The freeze is the fake network holding every request until the test lets them go (the log
 * write first); the sweep that gives the agent up is serve's own, called with a later time.
 */

/** Waits for an event, however slow the machine. */
const WAIT = { timeout: 30_000 };

describe('berth agent resumed after berth gave it up', () => {
  let f: AccessFixture;
  let tf: StandInTerraform;
  let pool: string;
  let agent: RunningAgent | undefined;
  let rejections: ReturnType<typeof unhandledRejections>;
  const lines: string[] = [];
  const answered: { path: string; status: number }[] = [];
  let frozen = false;
  const held: { path: string; go: () => void }[] = [];

  const fetchImpl = (async (input: string | URL | Request, init?: RequestInit) => {
    const req = new Request(input, init);
    const path = new URL(req.url).pathname;
    if (frozen) await new Promise<void>((go) => held.push({ path, go }));
    const res = await f.api.app.fetch(req);
    answered.push({ path, status: res.status });
    return res;
  }) as typeof fetch;
  const letGo = (which: (path: string) => boolean) => {
    for (const h of held.filter((h) => which(h.path))) {
      held.splice(held.indexOf(h), 1);
      h.go();
    }
  };

  beforeEach(async () => {
    lines.length = 0;
    answered.length = 0;
    held.length = 0;
    frozen = false;
    rejections = unhandledRejections();
    f = await accessFixture(await TestApi.create({ settings: EXECUTING }));
    tf = standInTerraform();
    pool = await createAgentPool(f.api, 'acme', 'builders');
    const ws = await f.api.patch(
      `${P}/workspaces/${f.web}`,
      { data: { type: 'workspaces', attributes: { 'execution-mode': 'agent', 'agent-pool-id': pool } } },
      { token: f.owner.token },
    );
    expect(ws.status, ws.text).toBe(200);
    await runnableWorkspace(f, f.web);
    agent = await startAgent({
      server: 'http://berth.test',
      token: await createAgentToken(f.api, pool, f.owner.token),
      name: 'rack-1',
      concurrency: 1,
      terraformPath: tf.path,
      log: (line) => lines.push(line),
      fetchImpl,
    });
  });
  afterEach(async () => {
    frozen = false;
    letGo(() => true);
    tf.say('resume');
    tf.say('finish');
    await agent?.stop().catch(() => undefined);
    agent = undefined;
    tf.remove();
    rejections.stop();
    await f.api.close();
  });

  it('stops the run berth ended, registers again, and executes the next run', async () => {
    const first = agent!.registration.id;
    let done = false;
    void agent!.done.then(
      () => (done = true),
      () => (done = true),
    );
    const run = await queueRun(f, f.web, { 'plan-only': true });
    await expect.poll(() => tf.planning(), WAIT).toBe(true);
    const pid = tf.planPid();

    // Frozen: nothing it sends reaches berth, which gives it up (as its sweep does after the timeout).
    frozen = true;
    const swept = await sweepAgents(f.api.store.db, new Date(Date.now() + 3_600_000), 30_000);
    expect(swept).toEqual({ agents: [first], runs: [run.id] });
    expect(await runStatus(f, run.id)).toBe('errored');

    // Resumed: terraform's next output is the first request to reach berth.
    tf.say('resume');
    const logPath = `/api/agent/runs/${run.id}/logs/plan`;
    await expect.poll(() => held.some((h) => h.path === logPath), WAIT).toBe(true);
    const before = answered.length;
    letGo((path) => path === logPath);
    await expect.poll(() => answered.slice(before).find((a) => a.path === logPath)?.status, WAIT).toBe(409);
    frozen = false;
    letGo(() => true);

    await expect.poll(() => lines.some((l) => l.includes('registered again as agent-')), WAIT).toBe(true);
    await expect.poll(() => alive(pid), WAIT).toBe(false);
    await expect.poll(() => lines.filter((l) => l.includes(`run ${run.id} is gone`)).length, WAIT).toBe(1);
    // berth's end of the run stands: the agent's canceled does not replace it.
    expect(await runStatus(f, run.id)).toBe('errored');

    // It goes on: the next run is claimed and executed under its new registration.
    tf.say('finish');
    const next = await queueRun(f, f.web, { 'plan-only': true });
    await expect.poll(() => runStatus(f, next.id), WAIT).toBe('planned_and_finished');
    const agents = (await f.api.get(`${P}/agent-pools/${pool}/agents`, { token: f.owner.token })).body.data as {
      id: string;
      attributes: { status: string };
    }[];
    expect(agents.find((a) => a.id === first)?.attributes.status).toBe('exited');
    expect(agents.filter((a) => a.id !== first).map((a) => a.attributes.status)).toEqual([
      expect.stringMatching(/^(idle|busy)$/),
    ]);
    expect(done).toBe(false);
    expect(rejections.seen).toEqual([]);
  });
});
