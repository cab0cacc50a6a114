import { conflict } from '../../domain/common/errors.js';
import { FINAL_STATUSES, type RunStatus } from '../../domain/runs/run.js';
import { DISCARDABLE } from '../../domain/runs/run-execution.js';
import type { Tx } from '../../store/transaction.js';
import { recordRunEvent } from './run-events.js';
import { CANCEL_REQUESTED } from '../../domain/runs/run-events.js';
import { setStatus } from './run-queue.js';

/** Why a run ended by a force-unlock of its workspace did not apply (its error message). */
export const FORCE_UNLOCKED_MESSAGE =
  "The workspace's lock was force-unlocked while this run held it: the run was ended and will not apply.";

/**
 * What a force-unlock does to the run that holds its workspace's lock (issue 46): once the lock is
 * gone, another party may lock the workspace and change its state, so the run must never apply.
 * One waiting for confirmation, or not yet started, is discarded or canceled at once; one whose plan
 * executes is asked to cancel (its executor interrupts terraform; a plan that ends first ends
 * canceled, run-phases.ts), and its lock goes now. One that applies is refused: terraform is
 * changing the state, and releasing the lock under it would let two parties change one state; it is
 * canceled (and force-canceled) first. A run already ended holds no lock: nothing to do.
 */
export async function endRunLosingItsLock(tx: Tx, runId: string, now: string, by: string | null): Promise<void> {
  const row = await tx.selectFrom('runs').selectAll().where('id', '=', runId).executeTakeFirst();
  if (!row) return;
  const status = row.status as RunStatus;
  if (FINAL_STATUSES.includes(status)) return;
  const ended = { error_message: FORCE_UNLOCKED_MESSAGE };
  if (status === 'applying')
    throw conflict(
      `Run ${runId} is applying: its lock cannot be released while terraform changes the state. Cancel the run first (and force-cancel it if it does not stop).`,
    );
  if (DISCARDABLE.includes(status) && (status !== 'pending' || row.claimed_by === null)) {
    await setStatus(tx, row, 'discarded', now, { ...ended, apply_status: 'canceled' }, by);
    return;
  }
  if (row.claimed_by === null || status === 'confirmed' || status === 'apply_queued') {
    const planStatus = row.plan_status === 'finished' ? 'finished' : 'canceled';
    await setStatus(tx, row, 'canceled', now, { ...ended, plan_status: planStatus, apply_status: 'canceled' }, by);
    return;
  }
  // Its plan executes: the executor hears the cancel and ends it (its run token stops working now).
  await tx
    .updateTable('runs')
    .set({ cancel_requested: 1, updated_at: now, ...ended })
    .where('id', '=', runId)
    .execute();
  await recordRunEvent(tx, { runId, action: CANCEL_REQUESTED, at: now, actorUserId: by });
}
