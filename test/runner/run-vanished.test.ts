import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/domain/common/clock.js';
import { Executor } from '../../src/runner/executor.js';
import { inProcessPort } from '../../src/runner/in-process-port.js';
import type { RunnerPort } from '../../src/runner/port.js';
import type { AccessFixture } from '../helpers/access.js';
import { executingFixture, P, queueRun, runStatus } from '../helpers/run-execution.js';
import {
  alive,
  runnableWorkspace,
  standInTerraform,
  unhandledRejections,
  type StandInTerraform,
} from '../helpers/stand-in-terraform.js';

/**
 * go-tfe's and the tfe provider's tests delete their workspace, or its organization, right after
 * nearly every test, while its run is being claimed or starts planning. The run goes with it (its
 * rows cascade); its next log write met the foreign key of the run, the rejection was left
 * unhandled, and serve exited, every client and run with it. Here the deletion is made at those two
 * moments exactly (inside the port's claim, and inside the log write that says `planning`), and
 * the executor must stop terraform, treat the run as canceled, say so once, and go on.
 */

/** Waits for an event, however slow the machine. */
const WAIT = { timeout: 30_000 };

describe('a run whose workspace or organization is deleted while it executes', () => {
  let f: AccessFixture;
  let tf: StandInTerraform;
  let executor: Executor | null = null;
  let rejections: ReturnType<typeof unhandledRejections>;
  const lines: string[] = [];

  beforeEach(async () => {
    lines.length = 0;
    rejections = unhandledRejections();
    f = await executingFixture();
    tf = standInTerraform();
    await runnableWorkspace(f, f.web);
  });
  afterEach(async () => {
    tf.say('resume');
    tf.say('finish');
    await executor?.stop();
    executor = null;
    tf.remove();
    rejections.stop();
    await f.api.close();
  });

  const remove = {
    workspace: () => f.api.delete(`${P}/workspaces/${f.web}`, { token: f.owner.token }),
    organization: () => f.api.delete(`${P}/organizations/acme`, { token: f.owner.token }),
  };

  /** The in-process port, with `hook` called inside its claim or log write (once, when it says true). */
  const portWith = (hook: (call: 'claim' | 'log', chunk?: Buffer) => Promise<boolean>): RunnerPort => {
    const real = inProcessPort(f.api.store.db, systemClock);
    let done = false;
    const once = async (call: 'claim' | 'log', chunk?: Buffer) => {
      if (!done) done = await hook(call, chunk);
    };
    return {
      ...real,
      claim: async (name) => {
        const claimed = await real.claim(name);
        if (claimed) await once('claim');
        return claimed;
      },
      appendLog: async (runId, phase, chunk) => {
        await once('log', chunk);
        return real.appendLog(runId, phase, chunk);
      },
    };
  };

  const start = (port: RunnerPort) => {
    executor = new Executor(port, { terraformPath: tf.path, pollMs: 50, log: (l) => lines.push(l) });
    executor.start();
  };

  /** The run is gone, said once, nothing went unhandled, and the executor executes the next run. */
  const expectGoneAndGoingOn = async (runId: string) => {
    await expect.poll(() => lines.filter((l) => l.includes(`run ${runId} is gone`)).length, WAIT).toBe(1);
    expect(lines.find((l) => l.includes(`run ${runId} is gone`))).toContain('ended here as canceled');
    expect((await f.api.get(`${P}/runs/${runId}`, { token: f.owner.token })).status).toBe(404);
    expect((await f.api.get(`${P}/workspaces/${f.web}`, { token: f.owner.token })).status).toBe(404);
    // Another organization's run, queued after: the executor goes on.
    expect((await f.api.createOrg('next', f.owner.token)).status).toBe(201);
    const ws = await f.api.post(
      `${P}/organizations/next/workspaces`,
      { data: { type: 'workspaces', attributes: { name: 'app' } } },
      { token: f.owner.token },
    );
    expect(ws.status, ws.text).toBe(201);
    await runnableWorkspace(f, ws.body.data.id, 'next');
    tf.say('resume');
    tf.say('finish');
    const next = await queueRun(f, ws.body.data.id, { 'plan-only': true });
    await expect.poll(() => runStatus(f, next.id), WAIT).toBe('planned_and_finished');
    expect(rejections.seen).toEqual([]);
    expect(lines.filter((l) => l.includes(runId))).toHaveLength(1);
  };

  for (const what of ['workspace', 'organization'] as const) {
    it(`deleting its ${what} right after the claim: the run is treated as canceled, the executor goes on`, async () => {
      let deleted: number | null = null;
      start(
        portWith(async (call) => {
          if (call !== 'claim') return false;
          deleted = (await remove[what]()).status;
          return true;
        }),
      );
      const run = await queueRun(f, f.web);
      await expect.poll(() => deleted, WAIT).toBe(204);
      await expectGoneAndGoingOn(run.id);
    });

    it(`deleting its ${what} while it plans: terraform is stopped, the run is treated as canceled`, async () => {
      let deleted: number | null = null;
      start(
        portWith(async (call, chunk) => {
          if (call !== 'log' || !chunk?.toString().includes('planning')) return false;
          // The workspace is locked by its run: a force delete (HCP's DELETE), which ignores it.
          deleted = (await remove[what]()).status;
          return true;
        }),
      );
      const run = await queueRun(f, f.web);
      await expect.poll(() => deleted, WAIT).toBe(204);
      const pid = tf.planPid();
      expect(pid).toBeGreaterThan(0);
      await expect.poll(() => alive(pid), WAIT).toBe(false);
      await expectGoneAndGoingOn(run.id);
    });
  }
});
