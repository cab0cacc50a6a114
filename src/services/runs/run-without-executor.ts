import type { Kysely } from 'kysely';
import { LOG_END, LOG_START } from '../../domain/runs/run-execution.js';
import type { DB } from '../../store/schema.js';
import type { Tx } from '../../store/transaction.js';
import { claimRouteOf } from './run-claim.js';
import { appendLogTx, stamped, type RunRow } from './run-rows.js';
import { recordMove } from './run-events.js';

/**
 * Runs on an instance that executes none itself (`berth serve` found no terraform binary, or was
 * given --no-execute-runs; local mode). A run of a workspace whose effective execution mode is
 * `agent` does not need serve's executor: a `berth agent` of its pool executes it, so it is
 * queued as anywhere else. Any other run (`remote` mode: serve would have to execute it) is made,
 * so that its creator sees what happened, and ends `errored` at once, saying in its error message
 * and its plan's log what to install. It never waits in the workspace's queue, nor takes its lock.
 */

export const NO_EXECUTOR_MESSAGE =
  "this berth has no terraform binary: install Terraform on the server's PATH or start berth serve with --terraform-binary";

type Db = Kysely<DB>;

/**
 * Whether a run of the workspace is queued for an executor: always on an instance that executes
 * runs; without one, only when the workspace's effective execution mode is `agent` (its pool's
 * agents execute it). False also for a workspace that does not exist.
 */
export async function runsAreExecuted(db: Db, workspaceId: string, executesRuns: boolean): Promise<boolean> {
  if (executesRuns) return true;
  return (await claimRouteOf(db, workspaceId))?.execution.mode === 'agent';
}

/**
 * Whether the organization sends runs to agents: its default execution mode, a project's that
 * overrides it, or a workspace's own mode is `agent` (a workspace inheriting one of those, or
 * created under it, executes on agents). What `operations` answers without an executor.
 */
export async function organizationRunsOnAgents(db: Db, organizationId: string): Promise<boolean> {
  const org = await db
    .selectFrom('organizations')
    .select('id')
    .where('id', '=', organizationId)
    .where((eb) =>
      eb.or([
        eb('default_execution_mode', '=', 'agent'),
        eb.exists(
          eb
            .selectFrom('projects')
            .select('projects.id')
            .where('projects.organization_id', '=', organizationId)
            .where('projects.execution_overridden', '=', 1)
            .where('projects.default_execution_mode', '=', 'agent'),
        ),
        eb.exists(
          eb
            .selectFrom('workspaces')
            .select('workspaces.id')
            .where('workspaces.organization_id', '=', organizationId)
            .where('workspaces.execution_mode', '=', 'agent'),
        ),
      ]),
    )
    .executeTakeFirst();
  return org !== undefined;
}

export async function endWithoutExecutor(
  tx: Tx,
  row: Pick<RunRow, 'id' | 'status_timestamps'>,
  now: string,
): Promise<void> {
  await tx
    .updateTable('runs')
    .set({
      status: 'errored',
      plan_status: 'errored',
      apply_status: 'canceled',
      plan_finished_at: now,
      error_message: NO_EXECUTOR_MESSAGE,
      status_timestamps: stamped(row, now, 'errored'),
      updated_at: now,
    })
    .where('id', '=', row.id)
    .execute();
  await recordMove(tx, row.id, 'errored', now);
  await appendLogTx(tx, row.id, 'plan', `${LOG_START}${NO_EXECUTOR_MESSAGE}\n${LOG_END}`);
}
