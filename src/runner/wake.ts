/**
 * Wakes the executors of this process when a request may have queued a run (a run created or
 * confirmed, a configuration uploaded, a workspace unlocked), so that they claim it at once
 * instead of at their next look (every second). In-process only: other instances on one
 * PostgreSQL database still find the run by looking.
 */
const listeners = new Set<() => void>();

export function onRunsMayHaveQueued(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

export function runsMayHaveQueued(): void {
  for (const listener of listeners) listener();
}

/**
 * Tells the log reads of this process waiting at the end of a run's log (run-execution.ts) that
 * the run's executor wrote to it or ended a phase, so that they answer at once. In-process only:
 * a read served by another instance finds the new bytes at its next look.
 */
const logListeners = new Set<(runId: string) => void>();

export function onRunLogMayHaveGrown(listener: (runId: string) => void): () => void {
  logListeners.add(listener);
  return () => logListeners.delete(listener);
}

export function runLogMayHaveGrown(runId: string): void {
  for (const listener of logListeners) listener(runId);
}
