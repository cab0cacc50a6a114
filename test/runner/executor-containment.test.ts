import { spawnSync } from 'node:child_process';
import {
  chmodSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { create } from 'tar';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/domain/common/clock.js';
import { Executor, type ExecutorOptions } from '../../src/runner/executor.js';
import { inProcessPort } from '../../src/runner/in-process-port.js';
import type { AccessFixture } from '../helpers/access.js';
import { executingFixture, newConfiguration, P, queueRun, runStatus, sendBytes } from '../helpers/run-execution.js';

/**
 * What a run's configuration cannot do to the executor: leave a process behind that holds
 * terraform's output open (the phase still ends, the process is killed with terraform's process
 * group), unpack past the configuration's bounds, or unpack links out of its folder. A stand-in
 * terraform (a shell script) plays the runs; the in-process port carries them.
 */

/** Waits for an event, however slow the machine. */
const WAIT = { timeout: 30_000 };

describe('the executor keeps a run in its place', () => {
  let f: AccessFixture;
  let dir: string;
  let executor: Executor | null = null;
  const pidFile = () => join(dir, 'background.pid');

  beforeEach(async () => {
    f = await executingFixture();
    dir = mkdtempSync(join(tmpdir(), 'berth-containment-'));
    const bin = join(dir, 'terraform');
    writeFileSync(
      bin,
      [
        '#!/bin/sh',
        'case "$1" in',
        `  version) echo '{"terraform_version":"1.11.4"}' ;;`,
        // A plan that leaves a process in the background, holding terraform's output open.
        `  plan) if [ -f leave-behind.tf ]; then sleep 600 & echo $! > '${pidFile()}'; fi; echo planned; exit 0 ;;`,
        `  show) echo '{"resource_changes":[]}' ;;`,
        'esac',
        'exit 0',
        '',
      ].join('\n'),
    );
    chmodSync(bin, 0o755);
    const ws = await f.api.patch(
      `${P}/workspaces/${f.web}`,
      { data: { type: 'workspaces', attributes: { 'terraform-version': 'latest' } } },
      { token: f.owner.token },
    );
    expect(ws.status, ws.text).toBe(200);
  });
  afterEach(async () => {
    await executor?.stop();
    executor = null;
    try {
      // The left-behind `sleep`, if the test failed before it was killed; never a process that
      // reused its pid since (another test's serve or terraform).
      const pid = Number(readFileSync(pidFile(), 'utf8'));
      if (readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('sleep')) process.kill(pid, 'SIGKILL');
    } catch {
      // None left (or none started).
    }
    rmSync(dir, { recursive: true, force: true });
    await f.api.close();
  });

  /** Uploads the files of `build` (made in a fresh folder) as the workspace's configuration. */
  const upload = async (build: (src: string) => string[]) => {
    const src = mkdtempSync(join(dir, 'src-'));
    const entries = build(src);
    const archive = join(dir, 'config.tar.gz');
    create({ gzip: true, cwd: src, sync: true, file: archive }, entries);
    const cv = await newConfiguration(f, f.web, { upload: false });
    const up = await sendBytes(f.api.app, 'PUT', cv.attributes['upload-url'], readFileSync(archive));
    expect(up.status, up.text).toBe(200);
  };

  /** Queues a plan-only run of the configuration, executes it, and answers how it ended. */
  const execute = async (options: Partial<ExecutorOptions> = {}) => {
    const run = await queueRun(f, f.web, { 'plan-only': true });
    executor = new Executor(inProcessPort(f.api.store.db, systemClock), {
      terraformPath: join(dir, 'terraform'),
      pollMs: 50,
      ...options,
    });
    executor.start();
    await expect.poll(() => runStatus(f, run.id), WAIT).toMatch(/^(planned_and_finished|errored)$/);
    const doc = (await f.api.get(`${P}/runs/${run.id}`, { token: f.owner.token })).body.data;
    return { status: doc.attributes.status as string, error: doc.attributes['error-message'] as string | null };
  };

  const alive = (pid: number) => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };

  it('a plan that leaves a process holding its output still ends, and the process is killed', async () => {
    await upload((src) => {
      writeFileSync(join(src, 'leave-behind.tf'), '');
      return ['leave-behind.tf'];
    });
    const run = await execute();
    expect(run.status).toBe('planned_and_finished');
    const pid = Number(readFileSync(pidFile(), 'utf8'));
    expect(pid).toBeGreaterThan(0);
    await expect.poll(() => alive(pid), WAIT).toBe(false);
  });

  it('a configuration that unpacks past its bounds ends the run errored, saying which', async () => {
    await upload((src) => {
      writeFileSync(join(src, 'big.tf'), 'x'.repeat(5000));
      return ['big.tf'];
    });
    const big = await execute({ maxConfiguration: { bytes: 4000, entries: 100 } });
    expect(big).toEqual({
      status: 'errored',
      error: 'The configuration unpacks to more than 4000 bytes: berth unpacks no more',
    });
    await executor!.stop();
    await upload((src) => {
      mkdirSync(join(src, 'many'));
      for (let i = 0; i < 12; i++) writeFileSync(join(src, 'many', `f${i}.tf`), '');
      return ['many'];
    });
    const many = await execute({ maxConfiguration: { bytes: 1_000_000, entries: 10 } });
    expect(many).toEqual({
      status: 'errored',
      error: 'The configuration has more than 10 files and folders: berth unpacks no more',
    });
  });

  it('a configuration with a link out of its folder is refused', async () => {
    await upload((src) => {
      writeFileSync(join(src, 'main.tf'), '');
      // A symbolic link to a file outside the configuration (made here, as `ln -s` would).
      symlinkSync('../../outside.txt', join(src, 'escape'));
      return ['main.tf', 'escape'];
    });
    writeFileSync(join(dir, 'outside.txt'), "not the run's");
    const run = await execute();
    expect(run).toEqual({ status: 'errored', error: 'the configuration archive cannot be extracted' });
  });

  it('on start, removes the run folders left by a process that is gone, and only those', async () => {
    const base = join(dir, 'runs');
    mkdirSync(base);
    // A process that has ended: its pid names the folders it left.
    const gone = spawnSync('true').pid;
    const left = join(base, `berth-run-${gone}-abc123`);
    mkdirSync(join(left, 'work'), { recursive: true });
    writeFileSync(join(left, 'work', 'zz_berth_run.auto.tfvars'), 'password = "hunter2"\n');
    // Those of live processes (another executor on this machine, and this one) stay.
    const live = [join(base, `berth-run-${process.ppid}-def456`), join(base, `berth-run-${process.pid}-ghi789`)];
    for (const d of live) mkdirSync(d);
    const other = join(base, 'not-a-run-folder');
    mkdirSync(other);
    await upload((src) => {
      writeFileSync(join(src, 'main.tf'), '');
      return ['main.tf'];
    });
    const run = await execute({ runFolderBase: base });
    expect(run.status).toBe('planned_and_finished');
    await expect.poll(() => existsSync(left), WAIT).toBe(false);
    for (const d of [...live, other]) expect(existsSync(d)).toBe(true);
    // The run's own folder (named for this process) was removed when its phase ended.
    expect(readdirSync(base).sort()).toEqual([...live.map((d) => basename(d)), 'not-a-run-folder'].sort());
  });
});
