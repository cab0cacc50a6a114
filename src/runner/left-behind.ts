import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { readdir, readFile, rm } from 'node:fs/promises';
import { join } from 'node:path';
import type { Phase } from './port.js';
import { removeRunFolder } from './run-folder.js';

/*
 * What a serve or an agent that was killed mid-phase leaves on its machine, and how the next one
 * to start there deals with it (executor.ts `start`): the run folder (its variables, its CLI
 * configuration with the run token, and after an apply that was under way, a state file that may
 * know resources no state version knows), and terraform processes still running in it when the
 * sandbox was off (in the sandbox, they died with their executor).
 *
 * Beside each run folder `DIR`, the executor keeps a record `DIR.run` (outside the folder, so a
 * sandboxed run can neither read nor change it): the run, the phase, and where the phase's state
 * is, with a digest of the state it started from.
 */

export interface RunRecord {
  runId: string;
  phase: Phase;
  /** The state file terraform writes in this phase (known once the folder is prepared). */
  statePath?: string;
  /** The SHA-256 of the state the phase started from (null: it started without one). */
  startedFrom?: string | null;
}

const recordFile = (dir: string) => `${dir}.run`;

export const digest = (bytes: Buffer | null): string | null =>
  bytes ? createHash('sha256').update(bytes).digest('hex') : null;

/** Writes (or rewrites) the record of the run folder `dir`. */
export function writeRunRecord(dir: string, record: RunRecord): void {
  writeFileSync(recordFile(dir), JSON.stringify(record), { mode: 0o600 });
}

/** Removes the record of `dir` (its folder is gone). */
export async function removeRunRecord(dir: string): Promise<void> {
  await rm(recordFile(dir), { force: true });
}

async function readRunRecord(dir: string): Promise<RunRecord | null> {
  try {
    const r = JSON.parse(await readFile(recordFile(dir), 'utf8')) as RunRecord;
    return typeof r.runId === 'string' && (r.phase === 'plan' || r.phase === 'apply') ? r : null;
  } catch {
    return null;
  }
}

/** Whether `path` is `dir` or inside it. */
const within = (path: string, dir: string) => path === dir || path.startsWith(`${dir}/`);

/**
 * The processes of this machine that belong to the run folder `dir`: those working in it (their
 * cwd) or started with its environment (TMPDIR, which every phase's terraform and what it starts
 * inherit), with their process groups. Those of other users cannot be read, and are not ours.
 */
function processesOf(dir: string): { pids: number[]; groups: number[] } {
  const pids: number[] = [];
  const groups = new Set<number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      const cwd = readlinkSync(`/proc/${name}/cwd`);
      const env = within(cwd, dir) ? '' : readFileSync(`/proc/${name}/environ`, 'latin1');
      if (within(cwd, dir) || env.split('\0').includes(`TMPDIR=${dir}`)) {
        pids.push(Number(name));
        // Field 5 of stat, after the command in parentheses (which may itself hold spaces).
        const stat = readFileSync(`/proc/${name}/stat`, 'latin1');
        const pgrp = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2]);
        if (pgrp > 1) groups.add(pgrp);
      }
    } catch {
      // Gone meanwhile, or not ours to read.
    }
  }
  return { pids, groups: [...groups] };
}

/**
 * Kills every process still running for the run folder `dir` (what an unsandboxed terraform of a
 * killed executor left applying), with their process groups, until none is left. Linux only (it
 * reads /proc); elsewhere there is nothing to find. Answers how many it killed.
 */
export async function killProcessesOf(dir: string, wait: () => Promise<void>): Promise<number> {
  if (process.platform !== 'linux') return 0;
  let killed = 0;
  for (let round = 0; round < 50; round++) {
    const { pids, groups } = processesOf(dir);
    if (pids.length === 0) return killed;
    for (const g of groups)
      try {
        process.kill(-g, 'SIGKILL');
      } catch {
        // The group is gone.
      }
    for (const p of pids)
      try {
        process.kill(p, 'SIGKILL');
        killed += 1;
      } catch {
        // Gone.
      }
    await wait();
  }
  return killed;
}

/** Run folders are named for the process that made them: `berth-run-<pid>-<random>`. */
const RUN_FOLDER = /^berth-run-(\d+)-[^.]+$/;
const RUN_RECORD = /^(berth-run-\d+-[^.]+)\.run$/;

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: a process of another user has that pid; it is not ours to judge, so it counts as alive.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

export interface SweepOptions {
  /**
   * Hands berth the state an apply left in its folder (terraform wrote it, berth never recorded
   * it), to keep as a state version of the run; answers what to log.
   */
  keepState: (runId: string, state: Buffer) => Promise<string>;
  log: (line: string) => void;
  /** Waits a little between rounds of killing (default 50 ms). */
  wait?: () => Promise<void>;
}

/**
 * Deals with the run folders under `base` left by a process that is gone (a serve or an agent that
 * crashed or was killed mid-phase): kills what still runs in each, keeps the state an apply left
 * there, then removes the folder and its record. The folders of live processes (another executor on
 * this machine) are left alone. Answers how many folders it removed.
 */
export async function sweepRunFolders(base: string, options: SweepOptions): Promise<number> {
  const wait = options.wait ?? (() => new Promise<void>((r) => setTimeout(r, 50)));
  let removed = 0;
  const names = await readdir(base).catch(() => [] as string[]);
  for (const name of names) {
    const pid = RUN_FOLDER.exec(name)?.[1];
    if (pid === undefined || Number(pid) === process.pid || alive(Number(pid))) continue;
    const dir = join(base, name);
    const killed = await killProcessesOf(dir, wait);
    if (killed > 0) options.log(`killed ${killed} process(es) still running in ${dir}, left by a process that is gone`);
    const record = await readRunRecord(dir);
    if (record?.phase === 'apply' && record.statePath && within(record.statePath, dir)) {
      const state = await readFile(record.statePath).catch(() => null);
      if (state && digest(state) !== record.startedFrom)
        await options
          .keepState(record.runId, state)
          .then(options.log, (err: unknown) =>
            options.log(
              `the state left by run ${record.runId} could not be kept: ${(err as Error)?.message ?? String(err)}`,
            ),
          );
    }
    if ((await removeRunFolder(dir)) === null) {
      removed += 1;
      await removeRunRecord(dir);
    }
  }
  // Records whose folder is gone.
  for (const name of names) {
    const folder = RUN_RECORD.exec(name)?.[1];
    if (folder && !names.includes(folder)) await rm(join(base, name), { force: true });
  }
  return removed;
}
