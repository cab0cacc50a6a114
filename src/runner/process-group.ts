import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import { existsSync } from 'node:fs';

/**
 * terraform in a run, in a process group of its own: what it starts (providers, a local-exec's
 * commands and whatever they leave in the background) is stopped with it, and the executor does not
 * wait for ever on output pipes that a leftover process still holds open.
 */

/** How long the output may still come after terraform exited (a process that left the group). */
const DRAIN_MS = 2000;

/** util-linux's setpriv, which can set the parent-death signal that Node's spawn cannot. */
const SETPRIV = ['/usr/bin/setpriv', '/bin/setpriv'].find((p) => existsSync(p)) ?? null;

/**
 * `command args` killed (SIGKILL) when this process dies, however it dies: through setpriv's
 * `--pdeathsig` where util-linux has it (Linux), else unchanged. For terraform outside the sandbox
 * (whose bubblewrap does the same with --die-with-parent): a killed serve must not leave it applying.
 * What terraform itself started is found by the next executor's start (left-behind.ts).
 */
export function dyingWithParent(command: string, args: string[]): { command: string; args: string[] } {
  if (!SETPRIV || process.platform !== 'linux') return { command, args };
  return { command: SETPRIV, args: ['--pdeathsig', 'KILL', '--', command, ...args] };
}

/** Spawns `command` as the leader of a new process group. */
export function spawnInGroup(command: string, args: string[], options: SpawnOptions): ChildProcess {
  return spawn(command, args, { ...options, detached: true });
}

/** Sends `signal` to the child's whole group (to the child alone when the group is gone). */
export function signalGroup(child: ChildProcess, signal: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // Already gone.
    }
  }
}

/**
 * Calls `done` with the child's exit code once it exited and its output was read. When it exits,
 * what it left running in its group is killed (their copies of its pipes close with them); pipes
 * still open `drainMs` later (held by a process that left the group) are closed by berth.
 */
export function whenEnded(child: ChildProcess, done: (code: number | null) => void, drainMs = DRAIN_MS): void {
  let ended = false;
  let drain: NodeJS.Timeout | undefined;
  const end = (code: number | null) => {
    if (ended) return;
    ended = true;
    if (drain) clearTimeout(drain);
    done(code);
  };
  child.on('exit', (code) => {
    signalGroup(child, 'SIGKILL');
    drain = setTimeout(() => {
      child.stdout?.destroy();
      child.stderr?.destroy();
      end(code);
    }, drainMs);
  });
  child.on('close', (code: number | null) => end(code));
}
