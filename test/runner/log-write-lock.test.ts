import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/domain/common/clock.js';
import { Executor } from '../../src/runner/executor.js';
import { inProcessPort } from '../../src/runner/in-process-port.js';
import { openStore } from '../../src/store/open.js';
import { accessFixture, type AccessFixture } from '../helpers/access.js';
import { TestApi } from '../helpers/api.js';
import { holdWriteLock, type LockHolder } from '../helpers/lock-holder.js';
import { EXECUTING, queueRun, runStatus } from '../helpers/run-execution.js';
import {
  runnableWorkspace,
  standInTerraform,
  unhandledRejections,
  type StandInTerraform,
} from '../helpers/stand-in-terraform.js';

/**
 * A run writing its log while another process (a CLI bulk job, a second serve) holds SQLite's write
 * lock longer than berth waits for it (LOCK_WAIT_MS): the write failed with SQLITE_BUSY, the
 * rejection was left unhandled, and serve exited. The write must be tried again, the log's bytes
 * kept in order, and the run must end as it would have. On a SQLite file (the lock is the file's),
 * the lock held by a child process until the test saw the write refused once.
 */

/** Waits for an event, however slow the machine; a refused write alone waits LOCK_WAIT_MS (10 s). */
const WAIT = { timeout: 60_000 };

describe('a log write while another process holds the write lock', () => {
  let dir: string;
  let f: AccessFixture;
  let tf: StandInTerraform;
  let executor: Executor | null = null;
  let holder: LockHolder | null = null;
  let rejections: ReturnType<typeof unhandledRejections>;
  const lines: string[] = [];

  beforeEach(async () => {
    lines.length = 0;
    rejections = unhandledRejections();
    dir = mkdtempSync(join(tmpdir(), 'berth-log-lock-'));
    f = await accessFixture(await TestApi.on(await openStore(join(dir, 'berth.db')), { settings: EXECUTING }));
    tf = standInTerraform();
    await runnableWorkspace(f, f.web);
  });
  afterEach(async () => {
    holder?.kill();
    holder = null;
    tf.say('resume');
    tf.say('finish');
    await executor?.stop();
    executor = null;
    tf.remove();
    rejections.stop();
    await f.api.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const logOf = async (runId: string) =>
    Buffer.concat(
      (
        await f.api.store.db
          .selectFrom('run_logs')
          .select('body')
          .where('run_id', '=', runId)
          .where('phase', '=', 'plan')
          .orderBy('seq')
          .execute()
      ).map((r) => Buffer.from(r.body)),
    ).toString();

  it('is tried again until the lock is released: the run ends as it would have, its log whole and in order', async () => {
    executor = new Executor(inProcessPort(f.api.store.db, systemClock), {
      terraformPath: tf.path,
      pollMs: 50,
      log: (l) => lines.push(l),
    });
    executor.start();
    const run = await queueRun(f, f.web, { 'plan-only': true });
    await expect.poll(() => logOf(run.id), WAIT).toContain('planning\n');

    holder = await holdWriteLock(join(dir, 'berth.db'), 'forever');
    tf.say('resume');
    const retrying = `run ${run.id}: writing its log failed for now`;
    await expect.poll(() => lines.some((l) => l.includes(retrying)), WAIT).toBe(true);
    expect(lines.find((l) => l.includes(retrying))).toMatch(/lock|busy/i);
    tf.say('finish');
    await holder.release();
    holder = null;

    await expect.poll(() => runStatus(f, run.id), WAIT).toBe('planned_and_finished');
    const log = await logOf(run.id);
    expect(log.indexOf('planning\n')).toBeGreaterThan(0);
    expect(log.indexOf('resumed\n')).toBeGreaterThan(log.indexOf('planning\n'));
    expect(log.indexOf('planned\n')).toBeGreaterThan(log.indexOf('resumed\n'));
    expect(log.split('resumed\n')).toHaveLength(2);
    // Told once, however many times the write was tried.
    expect(lines.filter((l) => l.includes(retrying))).toHaveLength(1);
    expect(rejections.seen).toEqual([]);
  });
});
