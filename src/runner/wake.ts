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

/**
 * Tells the executors of this process that a request may have ended or removed runs they execute
 * (a cancel, a deletion of their workspace or organization), so that they ask whether to stop at
 * once instead of at their next look. In-process only, like the others.
 */
const stopListeners = new Set<() => void>();

export function onRunsMayHaveStopped(listener: () => void): () => void {
  stopListeners.add(listener);
  return () => stopListeners.delete(listener);
}

export function runsMayHaveStopped(): void {
  for (const listener of stopListeners) listener();
}
