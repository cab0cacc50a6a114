import { FINAL_STATUSES, type RunStatus } from '../../domain/runs/run.js';
import type { Tx } from '../../store/transaction.js';
import { recordMove } from './run-events.js';
import { stamped } from './run-rows.js';

/**
 * A workspace locked by someone (a person, a team or organization token: not a run) and its
 * waiting runs, and the workspace's `latest-run`, as HCP Terraform has them:
 * - "A lock prevents HCP Terraform from performing any plans or applies in the workspace (...),
 *   runs started on the command line with `terraform plan` and `terraform apply` (...). New runs
 *   remain in the pending state until the workspace is unlocked." So a plan-only run waits pending
 *   too (health assessments aside: they read, and run-queue.ts queues them as before); once the
 *   workspace is unlocked it plans at once, as plan-only runs wait for no other run.
 * - While the lock is held, the oldest run waiting for it is the workspace's `current-run` (once the
 *   run that was current ended): the Terraform CLI reads the current run of a locked workspace,
 *   and only when that run is pending does it say "Waiting for the manually locked workspace to be
 *   unlocked..." (internal/cloud/backend_common.go, waitForRun).
 * - `latest-run` is the workspace's newest run, whatever it waits for (assessments aside).
 */

/** Whether the workspace is locked by someone other than a run: its runs wait, plan-only ones too. */
export async function lockedBySomeone(tx: Tx, workspaceId: string): Promise<boolean> {
  const ws = await tx
    .selectFrom('workspaces')
    .select(['locked', 'locked_by_kind'])
    .where('id', '=', workspaceId)
    .executeTakeFirst();
  return ws?.locked === 1 && ws.locked_by_kind !== 'runs';
}

/** The run is its workspace's newest (`latest-run`). */
export async function becomeLatestRun(tx: Tx, run: { id: string; workspace_id: string }): Promise<void> {
  await tx.updateTable('workspaces').set({ latest_run_id: run.id }).where('id', '=', run.workspace_id).execute();
}

/**
 * In a workspace locked by someone: unless its current run still goes (a run waiting for the lock
 * already, or a recorded run its holder records), its oldest pending run becomes its current run.
 */
export async function currentWhileLocked(tx: Tx, workspaceId: string): Promise<void> {
  const ws = await tx
    .selectFrom('workspaces')
    .select(['current_run_id', 'current_run_status'])
    .where('id', '=', workspaceId)
    .executeTakeFirst();
  if (!ws) return;
  if (ws.current_run_id && !FINAL_STATUSES.includes(ws.current_run_status as RunStatus)) return;
  const next = await tx
    .selectFrom('runs')
    .select(['id', 'created_at'])
    .where('workspace_id', '=', workspaceId)
    .where('status', '=', 'pending')
    .where('configuration_version_id', 'is not', null)
    // A saved plan waits for nothing while it plans, and is no current run until applied.
    .where('save_plan', '=', 0)
    .orderBy('seq')
    .executeTakeFirst();
  if (!next) return;
  await tx
    .updateTable('workspaces')
    .set({ current_run_id: next.id, current_run_status: 'pending', current_run_created_at: next.created_at })
    .where('id', '=', workspaceId)
    .execute();
}

/** Once the workspace is free of someone's lock: its plan-only runs that waited for it plan now. */
export async function startWaitingPlans(tx: Tx, workspaceId: string, now: string): Promise<void> {
  const waiting = await tx
    .selectFrom('runs')
    .select(['id', 'status_timestamps'])
    .where('workspace_id', '=', workspaceId)
    .where('status', '=', 'pending')
    .where('plan_only', '=', 1)
    .where('configuration_version_id', 'is not', null)
    .orderBy('seq')
    .execute();
  for (const run of waiting) {
    await tx
      .updateTable('runs')
      .set({
        status: 'plan_queued',
        plan_status: 'queued',
        status_timestamps: stamped(run, now, 'plan_queued'),
        updated_at: now,
      })
      .where('id', '=', run.id)
      .where('status', '=', 'pending')
      .execute();
    await recordMove(tx, run.id, 'plan_queued', now);
    await tx
      .updateTable('workspaces')
      .set({ current_run_status: 'plan_queued' })
      .where('id', '=', workspaceId)
      .where('current_run_id', '=', run.id)
      .execute();
  }
}
