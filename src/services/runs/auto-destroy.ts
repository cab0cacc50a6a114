import type { Kysely } from 'kysely';
import { durationMs, isValidDuration } from '../../domain/common/duration.js';
import type { DB } from '../../store/schema.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import { inWorkspaceOrganization } from '../write-scope.js';
import { claimRouteOf } from './run-claim.js';
import { insertAndQueue, newRunRow } from './run-queue.js';
import { runsAreExecuted } from './run-without-executor.js';
import { claimDueTime, latestConfiguration, recordScheduled } from './scheduled-runs.js';
import { notifyAutoDestroy } from '../notifications/notification-outbox.js';

/**
 * Auto-destroy (issue 36): when a workspace's `auto-destroy-at` has passed, the scheduler
 * (src/scheduler/) queues a destroy run on it, auto-applied, planned from its newest uploaded
 * configuration version, and clears `auto-destroy-at`. Under an `auto-destroy-activity-duration`
 * (the workspace's own or its project's) the time is its last activity (`latest-change-at`: its
 * creation, then each new state version, which every applied run writes) plus the duration, the
 * value the API shows. Each due time is handled once (`scheduled_runs`), whichever instance
 * handles it, and is recorded in the audit trail (`run.auto-destroy`, or
 * `workspace.auto-destroy-skipped` when no run could be queued).
 */

type Db = Kysely<DB>;

/** Why no destroy run was queued, as an auto-destroy results notification says it. */
const SKIPPED: Record<string, string> = {
  'destroy-not-allowed': 'The workspace does not allow destroy plans',
  'local-execution': 'The workspace executes its runs locally',
  'no-configuration': 'Configuration version is missing',
  'no-resources': 'The workspace has no resources to destroy',
};

export interface AutoDestroyOutcome {
  workspaceId: string;
  dueAt: string;
  /** `queued`, or why not: `no-configuration`, `destroy-not-allowed`, `local-execution`, `no-resources`. */
  outcome: string;
  runId: string | null;
}

export function candidates(db: Db | Tx) {
  return db
    .selectFrom('workspaces')
    .innerJoin('projects', 'projects.id', 'workspaces.project_id')
    .innerJoin('organizations', 'organizations.id', 'workspaces.organization_id')
    .select([
      'workspaces.id',
      'workspaces.name',
      'workspaces.organization_id',
      'organizations.name as org_name',
      'workspaces.auto_destroy_at',
      'workspaces.auto_destroy_overridden',
      'workspaces.auto_destroy_activity_duration',
      'projects.auto_destroy_activity_duration as project_duration',
      'workspaces.latest_change_at',
      'workspaces.allow_destroy_plan',
      'workspaces.resource_count',
    ]);
}
type Candidate = Awaited<ReturnType<ReturnType<typeof candidates>['executeTakeFirstOrThrow']>>;

/** When the workspace is due for auto-destroy (null: never), and whether a stored time says so. */
export function autoDestroyDue(row: Candidate): { dueAt: string; explicit: boolean } | null {
  if (row.auto_destroy_at) {
    const at = Date.parse(row.auto_destroy_at);
    return Number.isNaN(at) ? null : { dueAt: new Date(at).toISOString(), explicit: true };
  }
  const duration = row.auto_destroy_overridden === 1 ? row.auto_destroy_activity_duration : row.project_duration;
  if (!duration || !isValidDuration(duration)) return null;
  const since = Date.parse(row.latest_change_at);
  if (Number.isNaN(since)) return null;
  return { dueAt: new Date(since + durationMs(duration)).toISOString(), explicit: false };
}

/**
 * Queues the auto-destroy runs that are due at `now`; answers what it did. On an instance that
 * executes no runs itself (`executesRuns` false), only the workspaces whose runs agents execute:
 * the others keep their due time, until a serve that executes runs acts on it.
 */
export async function queueDueAutoDestroys(db: Db, now: Date, executesRuns = true): Promise<AutoDestroyOutcome[]> {
  const rows = await candidates(db)
    .where((eb) =>
      eb.or([
        eb('workspaces.auto_destroy_at', 'is not', null),
        eb.and([
          eb('workspaces.auto_destroy_overridden', '=', 1),
          eb('workspaces.auto_destroy_activity_duration', 'is not', null),
        ]),
        eb.and([
          eb('workspaces.auto_destroy_overridden', '=', 0),
          eb('projects.auto_destroy_activity_duration', 'is not', null),
        ]),
      ]),
    )
    .execute();
  const done: AutoDestroyOutcome[] = [];
  for (const row of rows) {
    const due = autoDestroyDue(row);
    if (!due || Date.parse(due.dueAt) > now.getTime()) continue;
    if (!(await runsAreExecuted(db, row.id, executesRuns))) continue;
    const outcome = await queueOne(db, row.id, due.dueAt, now.toISOString(), executesRuns);
    if (outcome) done.push(outcome);
  }
  return done;
}

async function queueOne(db: Db, workspaceId: string, dueAt: string, now: string, executesRuns: boolean) {
  return writeTransaction(inWorkspaceOrganization({ db }, { id: workspaceId }), async (tx) => {
    // Read again inside the transaction: the workspace may have changed (or gone) meanwhile.
    const ws = await candidates(tx).where('workspaces.id', '=', workspaceId).executeTakeFirst();
    const due = ws && autoDestroyDue(ws);
    if (!ws || !due || due.dueAt !== dueAt) return null;
    const cv = await latestConfiguration(tx, ws.id);
    // A local workspace's runs execute in the Terraform CLI: a destroy run queued here would hold
    // its lock for ever, as nothing claims it (POST /runs refuses one with a 422).
    const local = (await claimRouteOf(tx, ws.id))?.execution.mode === 'local';
    const outcome =
      ws.allow_destroy_plan !== 1
        ? 'destroy-not-allowed'
        : local
          ? 'local-execution'
          : !cv
            ? 'no-configuration'
            : !due.explicit && ws.resource_count === 0
              ? 'no-resources'
              : 'queued';
    const run =
      outcome === 'queued'
        ? newRunRow(
            ws.id,
            {
              configurationVersionId: cv!.id,
              message: `Queued by auto-destroy: the workspace was due for destruction at ${dueAt}`,
              isDestroy: true,
              refresh: true,
              refreshOnly: false,
              planOnly: false,
              autoApply: true,
              allowEmptyApply: false,
              targetAddrs: [],
              replaceAddrs: [],
              variables: [],
            },
            { kind: null, id: null },
            now,
          )
        : null;
    const claimed = await claimDueTime(tx, {
      kind: 'auto-destroy',
      workspaceId: ws.id,
      dueAt,
      runId: run?.id ?? null,
      outcome,
      now,
    });
    if (!claimed) return null;
    if (due.explicit)
      await tx
        .updateTable('workspaces')
        .set({ auto_destroy_at: null })
        .where('id', '=', ws.id)
        .where('auto_destroy_at', '=', ws.auto_destroy_at)
        .execute();
    if (run) await insertAndQueue(tx, run, now, executesRuns);
    await recordScheduled(tx, {
      now,
      action: run ? 'run.auto-destroy' : 'workspace.auto-destroy-skipped',
      target: run ? { type: 'runs', id: run.id, name: null } : { type: 'workspaces', id: ws.id, name: ws.name },
      organizationId: ws.organization_id,
      organizationName: ws.org_name,
      workspaceId: ws.id,
    });
    // No run: its results are told now (a queued run's when it ends: notification-outbox.ts).
    if (!run)
      await notifyAutoDestroy(
        tx,
        ws.id,
        {
          triggerType: 'results',
          autoDestroyAt: null,
          runCreatedAt: null,
          runStatus: null,
          runExternalId: null,
          runCreateErrorMessage: SKIPPED[outcome] ?? outcome,
        },
        now,
      );
    return { workspaceId: ws.id, dueAt, outcome, runId: run?.id ?? null } satisfies AutoDestroyOutcome;
  });
}
