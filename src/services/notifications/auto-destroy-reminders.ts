import type { Kysely } from 'kysely';
import type { DB } from '../../store/schema.js';
import { writeTransaction } from '../../store/transaction.js';
import { autoDestroyDue, candidates } from '../runs/auto-destroy.js';
import { claimDueTime } from '../runs/scheduled-runs.js';
import { inWorkspaceOrganization } from '../write-scope.js';
import { notifyAutoDestroy } from './notification-outbox.js';

/**
 * The `workspace:auto_destroy_reminder` notifications: the scheduler (src/scheduler/) asks each
 * round for the workspaces whose auto-destroy is due within REMINDER_LEAD_MS and that have an
 * enabled configuration listening for it, and writes one reminder per due time to the outbox
 * (claimed in `scheduled_runs`, kind `auto-destroy-reminder`: once, across restarts and
 * instances). A due time that moves is a new one, reminded again.
 */
export const REMINDER_LEAD_MS = 12 * 3_600_000;

export async function queueAutoDestroyReminders(db: Kysely<DB>, now: Date): Promise<string[]> {
  const listening = await db
    .selectFrom('notification_configurations')
    .select(['workspace_id', 'triggers'])
    .where('enabled', '=', 1)
    .where('workspace_id', 'is not', null)
    .where('triggers', 'like', '%workspace:auto_destroy_reminder%')
    .execute();
  const ids = [...new Set(listening.map((r) => r.workspace_id!))];
  const reminded: string[] = [];
  for (const workspaceId of ids) {
    const row = await candidates(db).where('workspaces.id', '=', workspaceId).executeTakeFirst();
    const due = row && autoDestroyDue(row);
    if (!due) continue;
    const dueMs = Date.parse(due.dueAt);
    if (now.getTime() < dueMs - REMINDER_LEAD_MS || now.getTime() >= dueMs) continue;
    const at = now.toISOString();
    const done = await writeTransaction(inWorkspaceOrganization({ db }, { id: workspaceId }), async (tx) => {
      const claimed = await claimDueTime(tx, {
        kind: 'auto-destroy-reminder',
        workspaceId,
        dueAt: due.dueAt,
        runId: null,
        outcome: 'reminded',
        now: at,
      });
      if (!claimed) return false;
      await notifyAutoDestroy(
        tx,
        workspaceId,
        {
          triggerType: 'reminder',
          autoDestroyAt: due.dueAt,
          runCreatedAt: null,
          runStatus: null,
          runExternalId: null,
          runCreateErrorMessage: null,
        },
        at,
      );
      return true;
    });
    if (done) reminded.push(workspaceId);
  }
  return reminded;
}
