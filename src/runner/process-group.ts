import { spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';

/**
 * terraform in a run, in a process group of its own: what it starts (providers, a local-exec's
 * commands and whatever they leave in the background) is stopped with it, and the executor does not
 * wait for ever on output pipes that a leftover process still holds open.
 */

/** How long the output may still come after terraform exited (a process that left the group). */
const DRAIN_MS = 2000;

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
