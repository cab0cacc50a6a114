import { newId } from '../../domain/common/ids.js';
import type {
  AssessmentFacts,
  AssessmentResultFacts,
  AutoDestroyFacts,
  NotificationFacts,
  RunFacts,
} from '../../domain/notifications/payloads.js';
import { FINAL_STATUSES, type RunStatus } from '../../domain/runs/run.js';
import type { Tx } from '../../store/transaction.js';

/**
 * The outbox of notifications: the events that trigger them write one row per enabled
 * configuration of the workspace that listens for the trigger, in the event's own transaction
 * (a run's move: run-events.ts `recordMove`; an assessment's result; an auto-destroy's outcome),
 * with the facts of that moment. Nothing is sent here: `berth serve`'s deliverer does it later
 * (notification-delivery.ts), so a run never waits for a receiver, and a crash loses nothing
 * that committed. A workspace without listening configurations costs one indexed query.
 */

/** A run's move to a status, and the trigger and message HCP sends for it. */
const RUN_TRIGGERS: Partial<Record<RunStatus, { trigger: string; message: string }>> = {
  pending: { trigger: 'run:created', message: 'Run Created' },
  planning: { trigger: 'run:planning', message: 'Run Planning' },
  planned: { trigger: 'run:needs_attention', message: 'Run Needs Attention' },
  policy_soft_failed: { trigger: 'run:needs_attention', message: 'Run Needs Attention' },
  applying: { trigger: 'run:applying', message: 'Run Applying' },
  applied: { trigger: 'run:completed', message: 'Run Applied' },
  planned_and_finished: { trigger: 'run:completed', message: 'Run Planned and Finished' },
  errored: { trigger: 'run:errored', message: 'Run Errored' },
  canceled: { trigger: 'run:errored', message: 'Run Canceled' },
  force_canceled: { trigger: 'run:errored', message: 'Run Force Canceled' },
  discarded: { trigger: 'run:errored', message: 'Run Discarded' },
};

/** The enabled configurations of a workspace listening for `trigger`. */
async function listeners(tx: Tx, workspaceId: string, trigger: string): Promise<string[]> {
  const rows = await tx
    .selectFrom('notification_configurations')
    .select(['id', 'triggers'])
    .where('workspace_id', '=', workspaceId)
    .where('enabled', '=', 1)
    .execute();
  return rows.filter((r) => (JSON.parse(r.triggers) as string[]).includes(trigger)).map((r) => r.id);
}

async function enqueue(tx: Tx, configurationIds: string[], facts: NotificationFacts, at: string): Promise<void> {
  if (configurationIds.length === 0) return;
  const payload = JSON.stringify(facts);
  await tx
    .insertInto('notification_deliveries')
    .values(
      configurationIds.map((configuration_id) => ({
        id: newId('ncd'),
        configuration_id,
        trigger: facts.trigger,
        payload,
        attempts: 0,
        next_attempt_at: at,
        claimed_until: null,
        created_at: at,
      })),
    )
    .execute();
}

async function usernameOf(tx: Tx, userId: string | null): Promise<string | null> {
  if (!userId) return null;
  const user = await tx.selectFrom('users').select('username').where('id', '=', userId).executeTakeFirst();
  return user?.username ?? null;
}

async function workspaceNames(tx: Tx, workspaceId: string) {
  return tx
    .selectFrom('workspaces')
    .innerJoin('organizations', 'organizations.id', 'workspaces.organization_id')
    .select(['workspaces.name as workspaceName', 'organizations.name as organizationName'])
    .where('workspaces.id', '=', workspaceId)
    .executeTakeFirst();
}

/**
 * A run moved to `to` at `at`, by the user `by` (null: berth). Speculative (plan-only) runs,
 * health assessments among them, notify nothing, as on HCP. The end of an auto-destroy's run
 * also tells `workspace:auto_destroy_run_results`.
 */
export async function notifyRunMove(tx: Tx, runId: string, to: RunStatus, at: string, by: string | null) {
  const mapping = RUN_TRIGGERS[to];
  if (!mapping) return;
  const run = await tx
    .selectFrom('runs')
    .select(['workspace_id', 'message', 'created_at', 'created_by_kind', 'created_by_id', 'plan_only'])
    .where('id', '=', runId)
    .executeTakeFirst();
  if (!run || run.plan_only === 1) return;
  const configs = await tx
    .selectFrom('notification_configurations')
    .select(['id', 'triggers'])
    .where('workspace_id', '=', run.workspace_id)
    .where('enabled', '=', 1)
    .execute();
  if (configs.length === 0) return;
  const listening = (trigger: string) =>
    configs.filter((r) => (JSON.parse(r.triggers) as string[]).includes(trigger)).map((r) => r.id);
  const ids = listening(mapping.trigger);
  const results = FINAL_STATUSES.includes(to) ? listening('workspace:auto_destroy_run_results') : [];
  if (ids.length === 0 && results.length === 0) return;
  const names = await workspaceNames(tx, run.workspace_id);
  if (!names) return;
  if (ids.length > 0) {
    const creatorToken =
      run.created_by_kind === 'user' && run.created_by_id
        ? await tx.selectFrom('tokens').select('user_id').where('id', '=', run.created_by_id).executeTakeFirst()
        : undefined;
    const facts: RunFacts = {
      scope: 'run',
      ...mapping,
      runId,
      runMessage: run.message,
      runCreatedAt: run.created_at,
      runCreatedBy: await usernameOf(tx, creatorToken?.user_id ?? null),
      runStatus: to,
      runUpdatedAt: at,
      runUpdatedBy: await usernameOf(tx, by),
      workspaceId: run.workspace_id,
      ...names,
    };
    await enqueue(tx, ids, facts, at);
  }
  if (results.length > 0 && (await isAutoDestroyRun(tx, runId))) {
    const facts: AutoDestroyFacts = {
      scope: 'workspace',
      trigger: 'workspace:auto_destroy_run_results',
      message: 'Auto Destroy Results',
      triggerType: 'results',
      autoDestroyAt: null,
      runCreatedAt: run.created_at,
      runStatus: to,
      runExternalId: runId,
      runCreateErrorMessage: null,
      workspaceId: run.workspace_id,
      ...names,
    };
    await enqueue(tx, results, facts, at);
  }
}

/**
 * An assessment's result: `assessment:drifted` when it found drift that the result before it had
 * not, `assessment:failed` when it failed and the one before had not (a state that lasts is said
 * once, when it begins). berth runs no continuous validation checks: `assessment:check_failure`
 * never fires.
 */
export async function notifyAssessment(
  tx: Tx,
  workspaceId: string,
  result: AssessmentResultFacts,
  prior: AssessmentResultFacts | null,
  at: string,
): Promise<void> {
  const event = !result.succeeded
    ? prior && !prior.succeeded
      ? null
      : { trigger: 'assessment:failed', message: 'Health Assessment Failed' }
    : result.drifted && !(prior?.succeeded && prior.drifted)
      ? { trigger: 'assessment:drifted', message: 'Drift Detected' }
      : null;
  if (!event) return;
  const ids = await listeners(tx, workspaceId, event.trigger);
  if (ids.length === 0) return;
  const names = await workspaceNames(tx, workspaceId);
  if (!names) return;
  const facts: AssessmentFacts = {
    scope: 'assessment',
    ...event,
    newResult: result,
    priorResult: prior,
    workspaceId,
    ...names,
  };
  await enqueue(tx, ids, facts, at);
}

/** An auto-destroy's reminder (before it is due) or results (its run ended, or none was queued). */
export async function notifyAutoDestroy(
  tx: Tx,
  workspaceId: string,
  event: Omit<AutoDestroyFacts, 'scope' | 'trigger' | 'message' | 'workspaceId' | 'workspaceName' | 'organizationName'>,
  at: string,
): Promise<void> {
  const reminder = event.triggerType === 'reminder';
  const trigger = reminder ? 'workspace:auto_destroy_reminder' : 'workspace:auto_destroy_run_results';
  const ids = await listeners(tx, workspaceId, trigger);
  if (ids.length === 0) return;
  const names = await workspaceNames(tx, workspaceId);
  if (!names) return;
  const facts: AutoDestroyFacts = {
    scope: 'workspace',
    trigger,
    message: reminder ? 'Auto Destroy Reminder' : 'Auto Destroy Results',
    ...event,
    workspaceId,
    ...names,
  };
  await enqueue(tx, ids, facts, at);
}

/** Whether a run is an auto-destroy's (its results are told when it ends). */
export async function isAutoDestroyRun(tx: Tx, runId: string): Promise<boolean> {
  const row = await tx
    .selectFrom('scheduled_runs')
    .select('run_id')
    .where('run_id', '=', runId)
    .where('kind', '=', 'auto-destroy')
    .executeTakeFirst();
  return row !== undefined;
}
