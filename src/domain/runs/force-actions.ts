import { conflict, forbidden, type BerthError } from '../common/errors.js';
import { DISCARDABLE } from './run-execution.js';
import type { RunStatus } from './run.js';

/**
 * The two forceful actions on an executed run (HCP Terraform's): force-cancel, which ends a run
 * whose cancel was asked at once, and force-execute, which discards the runs ahead of a pending
 * run so that it plans now. Pure rules; services/runs/run-actions.ts and force-execute.ts act.
 */

/**
 * How long after its first cancel a run may be force-canceled. HCP waits a cool-off period there,
 * to give terraform time to stop by itself; berth's executor interrupts terraform the moment the
 * cancel is asked and a force-cancel only kills what is left, so berth waits none: a force-cancel
 * is possible as soon as a cancel was asked, and `force-cancel-available-at` is the time of that
 * cancel (docs/api.md, "Cancel and force-cancel").
 */
export const FORCE_CANCEL_COOL_OFF_MS = 0;

/** `force-cancel-available-at` of a run whose first cancel is asked at `now`. */
export function forceCancelAvailableAt(now: Date): string {
  return new Date(now.getTime() + FORCE_CANCEL_COOL_OFF_MS).toISOString();
}

/** Whether the cool-off since the run's first cancel is over at `now` (null: never canceled). */
export function forceCancelAvailable(availableAt: string | null, now: Date): boolean {
  return availableAt !== null && Date.parse(availableAt) <= now.getTime();
}

/** What force-execute checks: the run, and who holds its workspace's lock. */
export interface ForceExecuteFacts {
  runId: string;
  status: RunStatus;
  lock: { kind: string; id: string } | null;
  /** The run that holds the lock, when a run does (its status now). */
  locker: { id: string; status: RunStatus } | null;
}

/**
 * Why a run cannot be force-executed, or null when it can. As HCP documents it: the run must be
 * pending (403 otherwise), its workspace locked by another run (403 otherwise: a workspace that
 * nobody holds needs no force, and a person's lock is theirs to release, never discarded), and
 * that run discardable, that is awaiting confirmation (409 otherwise: a run planning or applying
 * is canceled, not discarded).
 */
export function forceExecuteRefusal(f: ForceExecuteFacts): BerthError | null {
  if (f.status !== 'pending')
    return forbidden(`Run ${f.runId} is ${f.status}: only a pending run can be force-executed`);
  if (!f.lock)
    return forbidden(`Run ${f.runId} waits for no other run: its workspace is not locked, nothing is to be discarded`);
  if (f.lock.kind !== 'runs' || !f.locker)
    return forbidden(
      `Run ${f.runId} waits for a lock held by ${f.lock.kind} ${f.lock.id}, not by a run: ` +
        'force-execute discards runs, never a lock someone holds (it is theirs to unlock)',
    );
  if (!DISCARDABLE.includes(f.locker.status))
    return conflict(
      `Run ${f.locker.id}, which holds the workspace, is ${f.locker.status}: it cannot be discarded ` +
        `(cancel it first: berth run cancel ${f.locker.id})`,
    );
  return null;
}
