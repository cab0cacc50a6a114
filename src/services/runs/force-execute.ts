import { conflict, notAuthorized } from '../../domain/common/errors.js';
import { can } from '../../domain/permissions/policy.js';
import { forceExecuteRefusal } from '../../domain/runs/force-actions.js';
import type { RunStatus } from '../../domain/runs/run.js';
import { writeTransaction } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { inOrganizationOf } from '../write-scope.js';
import { userOf } from './run-events.js';
import { setStatus } from './run-queue.js';
import { isExecuted, readableRunRow } from './run-rows.js';

/**
 * `POST /runs/:id/actions/force-execute` (HCP's "Run this plan now"): a pending run that waits for
 * the run holding its workspace discards that run, and every run queued ahead of it, so that it
 * plans now. Who may apply runs of the workspace may (404 otherwise); the rules of when are
 * domain/runs/force-actions.ts. One transaction: the discards, the release of the workspace and
 * the run taking it, or nothing.
 */
export async function forceExecuteRun(ctx: ServiceContext, id: string): Promise<void> {
  await writeTransaction(inOrganizationOf(ctx, 'runs', id), async (tx) => {
    // Once the write lock is held, as every move of the queue.
    const now = ctx.clock.now().toISOString();
    const { row, facts } = await readableRunRow(ctx, tx, id);
    if (!can(ctx.actor, 'workspace:apply-run', facts)) throw notAuthorized('force-execute runs in this workspace');
    if (!isExecuted(row))
      throw conflict(`Run ${id} is a recorded run (executed elsewhere): berth queues and executes none of them`);
    const ws = await tx
      .selectFrom('workspaces')
      .select(['locked', 'locked_by_kind', 'locked_by_id'])
      .where('id', '=', row.workspace_id)
      .executeTakeFirstOrThrow();
    const locker =
      ws.locked === 1 && ws.locked_by_kind === 'runs' && ws.locked_by_id
        ? await tx.selectFrom('runs').selectAll().where('id', '=', ws.locked_by_id).executeTakeFirst()
        : undefined;
    const refusal = forceExecuteRefusal({
      runId: id,
      status: row.status as RunStatus,
      lock: ws.locked === 1 ? { kind: ws.locked_by_kind ?? 'someone', id: ws.locked_by_id ?? '' } : null,
      locker: locker ? { id: locker.id, status: locker.status as RunStatus } : null,
    });
    if (refusal) throw refusal;
    const by = userOf(ctx.actor);
    // The runs queued ahead of it first: while the lock is still held, none of them takes it.
    const ahead = await tx
      .selectFrom('runs')
      .selectAll()
      .where('workspace_id', '=', row.workspace_id)
      .where('seq', '<', row.seq)
      .where('plan_only', '=', 0)
      .where('configuration_version_id', 'is not', null)
      .where((eb) =>
        eb.or([
          eb.and([eb('status', '=', 'pending'), eb('save_plan', '=', 0)]),
          eb.and([eb('status', '=', 'confirmed'), eb('save_plan', '=', 1)]),
        ]),
      )
      .orderBy('seq')
      .execute();
    for (const r of ahead) await setStatus(tx, r, 'discarded', now, { apply_status: 'canceled' }, by);
    // Then the run holding the workspace: its release hands the workspace to the oldest waiting
    // run, which is now this one (run-queue.ts, scheduleWorkspace).
    await setStatus(tx, locker!, 'discarded', now, { apply_status: 'canceled' }, by);
  });
}
