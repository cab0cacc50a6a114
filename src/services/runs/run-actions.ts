import { conflict, notAuthorized } from '../../domain/common/errors.js';
import { can } from '../../domain/permissions/policy.js';
import { FINAL_STATUSES, type RunStatus } from '../../domain/runs/run.js';
import { APPLYABLE, CANCELABLE, DISCARDABLE, LOG_END } from '../../domain/runs/run-execution.js';
import { writeTransaction } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { inOrganizationOf } from '../write-scope.js';
import { appendLogTx, readableRunRow, stamped, type Phase } from './run-rows.js';
import { scheduleWorkspace, setStatus } from './run-queue.js';
import { refuseStale } from './stale-saved-plans.js';
import { CANCEL_REQUESTED } from '../../domain/runs/run-events.js';
import { commentOnEvent } from './comments.js';
import { recordMove, recordRunEvent, userOf } from './run-events.js';
import { forceCancelAvailable, forceCancelAvailableAt } from '../../domain/runs/force-actions.js';

/** The user's actions on an executed run: apply, discard, cancel, force-cancel (HCP's). */

export type RunAction = 'apply' | 'discard' | 'cancel' | 'force-cancel';

/**
 * A user's action on an executed run; 409 when its status does not allow it. Its event names the
 * user; `comment` (HCP's) becomes a comment of that event, in the same transaction.
 */
export async function actOnRun(
  ctx: ServiceContext,
  id: string,
  action: RunAction,
  comment: string | null = null,
): Promise<void> {
  await writeTransaction(inOrganizationOf(ctx, 'runs', id), async (tx) => {
    // Once the write lock is held: a confirmed saved plan joins its workspace's queue in the order
    // of its time, also when this write waited for another process's.
    const now = ctx.clock.now().toISOString();
    const { row, facts } = await readableRunRow(ctx, tx, id);
    const status = row.status as RunStatus;
    const by = userOf(ctx.actor);
    const commented = async (eventId: string) => {
      if (comment !== null) await commentOnEvent(tx, { id: eventId, runId: id, at: now, authorUserId: by }, comment);
    };
    const refuse = () => conflict(`Run ${id} is ${status}: it cannot be ${ACTION_PAST[action]}`);
    if (action === 'apply') {
      if (!can(ctx.actor, 'workspace:apply-run', facts)) throw notAuthorized('apply runs in this workspace');
      if (!APPLYABLE.includes(status)) throw refuse();
      // `confirmed-by`: the user who confirms (null for a token that is no user's).
      const confirmedBy = { confirmed_by_user_id: by };
      if (status === 'planned_and_saved') {
        // A saved plan joins its workspace's queue, confirmed; it applies when its turn comes
        // (scheduleWorkspace), unless the workspace's state changed since its plan.
        await refuseStale(tx, row);
        await commented(await setStatus(tx, row, 'confirmed', now, confirmedBy, by));
        await scheduleWorkspace(tx, row.workspace_id, now);
        return;
      }
      await tx
        .updateTable('runs')
        .set({ status_timestamps: stamped(row, now, 'confirmed'), ...confirmedBy })
        .where('id', '=', id)
        .execute();
      await commented(await recordMove(tx, id, 'confirmed', now, by));
      const confirmed = { ...row, status_timestamps: stamped(row, now, 'confirmed') };
      await setStatus(tx, confirmed, 'apply_queued', now, { apply_status: 'queued' });
      return;
    }
    if (!can(ctx.actor, 'workspace:queue-run', facts)) throw notAuthorized('change runs in this workspace');
    if (action === 'discard') {
      if (!DISCARDABLE.includes(status)) throw refuse();
      await commented(await setStatus(tx, row, 'discarded', now, { apply_status: 'canceled' }, by));
      return;
    }
    if (action === 'cancel') {
      if (!CANCELABLE.includes(status)) throw refuse();
      // Set by the first cancel, whether it ends the run at once or asks its executor (as HCP).
      if (row.force_cancel_available_at === null)
        await tx
          .updateTable('runs')
          .set({ force_cancel_available_at: forceCancelAvailableAt(new Date(now)) })
          .where('id', '=', id)
          .execute();
      // Not yet started: canceled at once. Running: the executor interrupts terraform and ends it
      // (its `canceled` is berth's); the user's ask is an event of its own.
      if (row.claimed_by === null || status === 'confirmed' || status === 'apply_queued') {
        const eventId = await setStatus(
          tx,
          row,
          'canceled',
          now,
          {
            plan_status: row.plan_status === 'finished' ? 'finished' : 'canceled',
            apply_status: 'canceled',
          },
          by,
        );
        await commented(eventId);
      } else {
        await tx.updateTable('runs').set({ cancel_requested: 1, updated_at: now }).where('id', '=', id).execute();
        await commented(await recordRunEvent(tx, { runId: id, action: CANCEL_REQUESTED, at: now, actorUserId: by }));
      }
      return;
    }
    // force-cancel: only after a cancel was asked (and its cool-off, none in berth), while the run still goes.
    if (
      row.cancel_requested !== 1 ||
      FINAL_STATUSES.includes(status) ||
      !forceCancelAvailable(row.force_cancel_available_at, new Date(now))
    )
      throw refuse();
    const phase: Phase = status === 'applying' ? 'apply' : 'plan';
    await appendLogTx(tx, id, phase, `\nThe run was force-canceled.\n${LOG_END}`);
    const eventId = await setStatus(
      tx,
      row,
      'force_canceled',
      now,
      {
        [`${phase}_status`]: 'canceled',
        ...(phase === 'plan' ? { plan_finished_at: now } : { apply_finished_at: now }),
      },
      by,
    );
    await commented(eventId);
  });
}

const ACTION_PAST: Record<RunAction, string> = {
  apply: 'applied',
  discard: 'discarded',
  cancel: 'canceled',
  'force-cancel': 'force-canceled',
};
