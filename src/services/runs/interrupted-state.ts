import type { Kysely } from 'kysely';
import type { DB } from '../../store/schema.js';
import { writeTransaction } from '../../store/transaction.js';
import { endInterruptedRun, storeRunState } from './run-phases.js';

/**
 * The state an apply left in its run folder when its executor was killed mid-apply (found by the
 * next executor to start on that machine, runner/left-behind.ts): terraform wrote it, berth never
 * recorded it, and it may know resources that no state version knows. It is kept as a state version
 * created by the run, in the workspace's history and never current (the workspace may have moved
 * on since), and the run's error message says so; a run still applying is ended errored with it.
 * Answers what happened, for the executor's log; null when the run is gone or never applied.
 */
export async function keepInterruptedState(db: Kysely<DB>, runId: string, bytes: Buffer, now: string) {
  const run = await db
    .selectFrom('runs')
    .select(['status', 'apply_status', 'heartbeat_at', 'workspace_id'])
    .where('id', '=', runId)
    .executeTakeFirst();
  // Only an apply that was under way, or that ended errored while under way.
  if (!run || !(run.status === 'applying' || (run.status === 'errored' && run.apply_status === 'errored'))) return null;
  const version = await storeRunState(db, runId, bytes, now, { historyOnly: true });
  const said =
    `The state terraform had written when its executor stopped is kept as state version ${version}, ` +
    `not made current (the workspace's current state may not know what this apply changed): ` +
    `compare them (berth state list) and push it if it is right.`;
  const ended =
    run.status === 'applying' &&
    (await endInterruptedRun(
      db,
      { id: runId, status: run.status, heartbeat_at: run.heartbeat_at },
      now,
      (row) =>
        `The run was interrupted: its executor (${row.claimed_by ?? 'unknown'}) stopped while it was applying; ` +
        `berth ended it errored. ${said}`,
    ));
  if (!ended)
    await writeTransaction(db, async (tx) => {
      const row = await tx.selectFrom('runs').select('error_message').where('id', '=', runId).executeTakeFirst();
      if (!row) return;
      const before = row.error_message ? `${row.error_message} ` : '';
      await tx
        .updateTable('runs')
        .set({ error_message: `${before}${said}`, updated_at: now })
        .where('id', '=', runId)
        .execute();
    });
  return { stateVersionId: version, workspaceId: run.workspace_id };
}
