import { LOG_END, LOG_START } from '../../domain/run-execution.js';
import type { Tx } from '../../store/transaction.js';
import { appendLogTx, stamped, type RunRow } from './run-rows.js';

/**
 * A run to execute on an instance that executes none (`berth serve` found no terraform binary,
 * or was given --no-execute-runs): it is made, so that its creator sees what happened, and ends
 * `errored` at once, saying in its error message and its plan's log what to install. It never
 * waits in the workspace's queue, nor takes its lock.
 */

export const NO_EXECUTOR_MESSAGE =
  "this berth has no terraform binary: install Terraform on the server's PATH or start berth serve with --terraform-binary";

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
  await appendLogTx(tx, row.id, 'plan', `${LOG_START}${NO_EXECUTOR_MESSAGE}\n${LOG_END}`);
}
