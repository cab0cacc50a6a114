import { conflict } from '../../domain/common/errors.js';
import type { RunStatus } from '../../domain/runs/run.js';
import type { Tx } from '../../store/transaction.js';
import { recordMove } from './run-events.js';

/**
 * Stale saved plans (HCP: "either another run was applied first"): a saved-plan run plans against
 * the workspace's current state version (recorded when its plan phase starts,
 * `plan_state_version_id`); once another state version becomes current, its plan can no longer
 * be applied as made. Only store and domain imports: the state services call this when they make a
 * state version current (promoteIntermediateState), and the run services import those.
 */

/** The saved-plan statuses a new current state discards: done planning, not yet applying. */
const STALE_WHEN_STATE_CHANGES: RunStatus[] = ['planned_and_saved', 'confirmed'];

/**
 * Discards the workspace's saved plans that wait (planned_and_saved, or confirmed and waiting for
 * their turn) and were planned against another state version than `currentId`: their saved plan
 * files go, as for every ended run. A run still planning is checked when its plan ends.
 */
export async function discardStaleSavedPlans(tx: Tx, workspaceId: string, currentId: string, now: string) {
  const stale = await tx
    .selectFrom('runs')
    .select(['id', 'status_timestamps'])
    .where('workspace_id', '=', workspaceId)
    .where('save_plan', '=', 1)
    .where('status', 'in', STALE_WHEN_STATE_CHANGES)
    .where((eb) => eb.or([eb('plan_state_version_id', 'is', null), eb('plan_state_version_id', '!=', currentId)]))
    .execute();
  for (const run of stale) {
    const stamps = run.status_timestamps ? (JSON.parse(run.status_timestamps) as Record<string, string>) : {};
    stamps['discarded-at'] = now;
    await tx
      .updateTable('runs')
      .set({
        status: 'discarded',
        apply_status: 'unreachable',
        status_timestamps: JSON.stringify(stamps),
        error_message: STALE_MESSAGE,
        updated_at: now,
      })
      .where('id', '=', run.id)
      .execute();
    await recordMove(tx, run.id, 'discarded', now);
    await tx.deleteFrom('saved_plans').where('run_id', '=', run.id).execute();
  }
}

export const STALE_MESSAGE =
  "The saved plan is stale: the workspace's state changed after it was planned (another run applied first)";

/** Whether a saved-plan run's plan was made against another state than its workspace's current one. */
export async function isStale(
  tx: Tx,
  run: { workspace_id: string; plan_state_version_id: string | null },
): Promise<boolean> {
  const ws = await tx
    .selectFrom('workspaces')
    .select('current_state_version_id')
    .where('id', '=', run.workspace_id)
    .executeTakeFirst();
  return (ws?.current_state_version_id ?? null) !== run.plan_state_version_id;
}

/** 409 for applying a saved plan that is stale (it is discarded as soon as the state changes). */
export async function refuseStale(
  tx: Tx,
  run: { id: string; workspace_id: string; plan_state_version_id: string | null },
): Promise<void> {
  if (await isStale(tx, run))
    throw conflict(
      `Run ${run.id} cannot be applied: its saved plan is stale (the workspace's state changed after it was planned)`,
    );
}
