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
