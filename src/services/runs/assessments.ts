import type { Kysely, Selectable } from 'kysely';
import { assessmentsProblem } from '../../domain/runs/assessments.js';
import { notFound } from '../../domain/common/errors.js';
import { randomTail } from '../../domain/common/ids.js';
import { FINAL_STATUSES } from '../../domain/runs/run.js';
import type { AssessmentResultsTable, DB } from '../../store/schema.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { executionOf, readableWorkspace, selectWorkspaces } from '../workspaces/workspaces-read.js';
import { inWorkspaceOrganization } from '../write-scope.js';
import { insertAndQueue, newRunRow } from './run-queue.js';
import { claimDueTime, latestConfiguration } from './scheduled-runs.js';
import { notifyAssessment } from '../notifications/notification-outbox.js';

/**
 * Health assessments (hosted edition, issue 36): the scheduler (src/scheduler/) queues, every
 * assessment interval, a refresh-only, plan-only run on each workspace with assessments enabled
 * (its own setting or the organization's `assessments-enforced`), in remote execution mode, with a
 * state and an uploaded configuration; never while another run of the workspace is unfinished, at
 * most one assessment at a time. Being plan-only, the run neither takes the workspace's lock nor
 * becomes its current run. When its plan ends (run-phases.ts, finishPhase), its result records
 * whether the plan succeeded and whether it had changes (terraform's -detailed-exitcode 2 in
 * refresh-only mode: drift), and becomes the workspace's `current-assessment-result`.
 */

type Db = Kysely<DB>;
type ResultRow = Selectable<AssessmentResultsTable>;

export const ASSESSMENT_MESSAGE = 'Health assessment: a refresh-only plan queued by berth to detect drift';

export interface AssessmentResult {
  id: string;
  workspaceId: string;
  runId: string;
  status: string;
  drifted: boolean | null;
  succeeded: boolean | null;
  errorMessage: string | null;
  createdAt: string;
  finishedAt: string | null;
}

const toResult = (r: ResultRow): AssessmentResult => ({
  id: r.id,
  workspaceId: r.workspace_id,
  runId: r.run_id,
  status: r.status,
  drifted: r.drifted === null ? null : r.drifted === 1,
  succeeded: r.succeeded === null ? null : r.succeeded === 1,
  errorMessage: r.error_msg,
  createdAt: r.created_at,
  finishedAt: r.finished_at,
});

async function latestResult(tx: Tx, workspaceId: string) {
  return tx
    .selectFrom('assessment_results')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .orderBy('seq', 'desc')
    .executeTakeFirst();
}

/**
 * Whether the workspace has a run that has not ended (its own, an assessment's, anyone's). A saved
 * plan waiting to be applied (`planned_and_saved`) does not count: it holds nothing, may wait for
 * ever, and is discarded as stale once the state changes.
 */
async function hasUnfinishedRun(tx: Tx, workspaceId: string): Promise<boolean> {
  const run = await tx
    .selectFrom('runs')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('status', 'not in', [...FINAL_STATUSES, 'planned_and_saved'])
    .executeTakeFirst();
  return run !== undefined;
}

/** When the workspace's next assessment is due: at once before its first, else an interval after the last. */
function dueOf(last: ResultRow | undefined, intervalMs: number): string {
  return last ? new Date(Date.parse(last.created_at) + intervalMs).toISOString() : 'first';
}

/** Queues the assessments due at `now` (the scheduler calls it on the hosted edition); answers their runs. */
export async function queueDueAssessments(db: Db, now: Date, intervalMs: number): Promise<string[]> {
  const rows = await selectWorkspaces(db)
    .where((eb) =>
      eb.or([eb('workspaces.assessments_enabled', '=', 1), eb('organizations.assessments_enforced', '=', 1)]),
    )
    .where('workspaces.current_state_version_id', 'is not', null)
    .execute();
  const queued: string[] = [];
  for (const row of rows) {
    const mode = executionOf(row).mode;
    if (mode !== 'remote' || assessmentsProblem(mode, row.terraform_version) !== null) continue;
    const last = await latestResult(db, row.id);
    const due = dueOf(last, intervalMs);
    if (due !== 'first' && Date.parse(due) > now.getTime()) continue;
    const runId = await queueOne(db, row.id, due, intervalMs, now.toISOString());
    if (runId) queued.push(runId);
  }
  return queued;
}

async function queueOne(db: Db, workspaceId: string, due: string, intervalMs: number, now: string) {
  return writeTransaction(inWorkspaceOrganization({ db }, { id: workspaceId }), async (tx) => {
    // Read again inside the transaction: another assessment or a user's run may have come.
    if (dueOf(await latestResult(tx, workspaceId), intervalMs) !== due) return null;
    if (await hasUnfinishedRun(tx, workspaceId)) return null;
    const cv = await latestConfiguration(tx, workspaceId);
    if (!cv) return null;
    const run = newRunRow(
      workspaceId,
      {
        configurationVersionId: cv.id,
        message: ASSESSMENT_MESSAGE,
        isDestroy: false,
        refresh: true,
        refreshOnly: true,
        planOnly: true,
        autoApply: false,
        allowEmptyApply: false,
        targetAddrs: [],
        replaceAddrs: [],
        variables: [],
      },
      { kind: null, id: null },
      now,
    );
    const claimed = await claimDueTime(tx, {
      kind: 'assessment',
      workspaceId,
      dueAt: due,
      runId: run.id,
      outcome: 'queued',
      now,
    });
    if (!claimed) return null;
    await insertAndQueue(tx, run, now, true, undefined, { assessment: true });
    await tx
      .insertInto('assessment_results')
      .values({
        id: `asmtres-${randomTail(16)}`,
        workspace_id: workspaceId,
        run_id: run.id,
        status: 'pending',
        drifted: null,
        succeeded: null,
        error_msg: null,
        created_at: now,
        finished_at: null,
      })
      .execute();
    return run.id;
  });
}

/**
 * The end of an assessment run's plan (finishPhase calls it for every plan; runs that are no
 * assessment are left alone): records the result and makes it the workspace's current one.
 */
export async function finishAssessment(
  tx: Tx,
  runId: string,
  result: { outcome: 'finished' | 'errored' | 'canceled'; hasChanges?: boolean; errorMessage?: string },
  now: string,
): Promise<void> {
  const row = await tx
    .selectFrom('assessment_results')
    .select(['id', 'workspace_id', 'created_at'])
    .where('run_id', '=', runId)
    .where('status', '=', 'pending')
    .executeTakeFirst();
  if (!row) return;
  const succeeded = result.outcome === 'finished';
  await tx
    .updateTable('assessment_results')
    .set({
      status: result.outcome,
      succeeded: succeeded ? 1 : 0,
      drifted: succeeded ? (result.hasChanges ? 1 : 0) : null,
      error_msg: succeeded ? null : (result.errorMessage ?? `The assessment's plan ${result.outcome}`),
      finished_at: now,
    })
    .where('id', '=', row.id)
    .execute();
  const prior = await tx
    .selectFrom('workspaces')
    .innerJoin('assessment_results', 'assessment_results.id', 'workspaces.current_assessment_result_id')
    .select([
      'assessment_results.id',
      'assessment_results.succeeded',
      'assessment_results.drifted',
      'assessment_results.created_at',
    ])
    .where('workspaces.id', '=', row.workspace_id)
    .executeTakeFirst();
  await tx
    .updateTable('workspaces')
    .set({ current_assessment_result_id: row.id })
    .where('id', '=', row.workspace_id)
    .execute();
  // Its notifications (assessment:drifted, assessment:failed), in the outbox with this result.
  await notifyAssessment(
    tx,
    row.workspace_id,
    { id: row.id, succeeded, drifted: succeeded && result.hasChanges === true, createdAt: row.created_at },
    prior
      ? { id: prior.id, succeeded: prior.succeeded === 1, drifted: prior.drifted === 1, createdAt: prior.created_at }
      : null,
    now,
  );
}

/** An assessment result (hosted edition; 404 unless its workspace is readable). */
export async function getAssessmentResult(ctx: ServiceContext, id: string): Promise<AssessmentResult> {
  const missing = () => notFound(`assessment result ${id} not found`);
  if (ctx.settings.edition !== 'hosted') throw missing();
  const row = await ctx.db.selectFrom('assessment_results').selectAll().where('id', '=', id).executeTakeFirst();
  if (!row) throw missing();
  await readableWorkspace(ctx, { id: row.workspace_id }).catch(() => {
    throw missing();
  });
  return toResult(row);
}

/** The workspace's current assessment result (hosted edition; 404 when it has none). */
export async function currentAssessmentResult(ctx: ServiceContext, workspaceId: string): Promise<AssessmentResult> {
  const missing = () => notFound(`workspace ${workspaceId} has no assessment result`);
  if (ctx.settings.edition !== 'hosted') throw missing();
  const { row: ws } = await readableWorkspace(ctx, { id: workspaceId }).catch(() => {
    throw notFound(`workspace ${workspaceId} not found`);
  });
  if (!ws.current_assessment_result_id) throw missing();
  return getAssessmentResult(ctx, ws.current_assessment_result_id);
}

/** The log of an assessment's refresh-only plan (404 as for the result). */
export async function assessmentLog(ctx: ServiceContext, id: string): Promise<Buffer> {
  const result = await getAssessmentResult(ctx, id);
  const rows = await ctx.db
    .selectFrom('run_logs')
    .select('body')
    .where('run_id', '=', result.runId)
    .where('phase', '=', 'plan')
    .orderBy('seq')
    .execute();
  return Buffer.concat(rows.map((r) => Buffer.from(r.body)));
}
