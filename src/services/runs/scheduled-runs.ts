import type { AuditActor } from '../../domain/audit/audit.js';
import type { Tx } from '../../store/transaction.js';
import { recordAuditEvent } from '../audit/audit-trail.js';

/**
 * What the scheduler's services share (auto-destroy.ts, assessments.ts): the actor its audit
 * records name, the claim of a due time (once per kind, workspace and due time), and the
 * workspace's current configuration version, which a scheduled run plans.
 */

/** The actor of the runs berth's scheduler queues: no token, no user. */
export const SCHEDULER_ACTOR: AuditActor = { kind: 'berth', id: null, tokenId: null, name: 'scheduler' };

/** `auto-destroy-reminder`: the notification sent before an auto-destroy (services/notifications/). */
export type ScheduledKind = 'auto-destroy' | 'assessment' | 'auto-destroy-reminder';

/**
 * Records that the scheduler handled `dueAt` of `kind` for the workspace. False when that due time
 * was already handled (by this instance earlier, or by another one): the caller then does nothing.
 */
export async function claimDueTime(
  tx: Tx,
  input: {
    kind: ScheduledKind;
    workspaceId: string;
    dueAt: string;
    runId: string | null;
    outcome: string;
    now: string;
  },
): Promise<boolean> {
  const inserted = await tx
    .insertInto('scheduled_runs')
    .values({
      kind: input.kind,
      workspace_id: input.workspaceId,
      due_at: input.dueAt,
      run_id: input.runId,
      outcome: input.outcome,
      created_at: input.now,
    })
    .onConflict((oc) => oc.columns(['kind', 'workspace_id', 'due_at']).doNothing())
    .executeTakeFirst();
  return Number(inserted.numInsertedOrUpdatedRows ?? 0) === 1;
}

/**
 * The workspace's current configuration version (current-configuration.ts: uploaded, neither
 * speculative nor an unapplied provisional one), if any.
 */
export async function latestConfiguration(tx: Tx, workspaceId: string): Promise<{ id: string } | undefined> {
  const ws = await tx
    .selectFrom('workspaces')
    .select('current_configuration_version_id')
    .where('id', '=', workspaceId)
    .executeTakeFirst();
  return ws?.current_configuration_version_id ? { id: ws.current_configuration_version_id } : undefined;
}

/** An audit record of the scheduler in the workspace's organization. */
export async function recordScheduled(
  tx: Tx,
  input: {
    now: string;
    action: string;
    target: { type: string; id: string; name: string | null };
    organizationId: string;
    organizationName: string;
    workspaceId: string;
  },
): Promise<void> {
  await recordAuditEvent(tx, {
    time: input.now,
    action: input.action,
    actor: SCHEDULER_ACTOR,
    subject: {
      target: input.target,
      organizationId: input.organizationId,
      organizationName: input.organizationName,
      workspaceId: input.workspaceId,
    },
    requestId: null,
  });
}
