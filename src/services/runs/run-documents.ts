import { sql } from 'kysely';
import { notFound } from '../../domain/common/errors.js';
import { LOG_URL_TTL_SECONDS, runUrlValid, signedRunQuery, type ExecutedRun } from '../../domain/runs/run-execution.js';
import type { ServiceContext } from '../context.js';
import { signingKey } from '../state/state-urls.js';
import { isExecuted, readableRunRow, toExecutedRun, type Phase } from './run-rows.js';
import { withExecutors, type WithExecutor } from './run-executors.js';

/** Reads of executed runs: the run, its plan and apply, and their logs behind signed URLs. */

/** The executed run with where it executed, or null when the run is a recorded one (404 when unreadable). */
export async function getExecutedRun(ctx: ServiceContext, id: string): Promise<WithExecutor<ExecutedRun> | null> {
  const { row, facts } = await readableRunRow(ctx, ctx.db, id);
  if (!isExecuted(row)) return null;
  const [run] = await withExecutors(ctx, [{ run: toExecutedRun(ctx, row, facts), claimedBy: row.claimed_by }]);
  return run;
}

/** 404 unless the run (recorded or executed) is readable. */
export async function readableRun(ctx: ServiceContext, id: string): Promise<void> {
  await readableRunRow(ctx, ctx.db, id);
}

export const tailOf = (id: string) => id.replace(/^(run|plan|apply)-/, '');

/** The run behind `plan-…` or `apply-…` (404 unless readable and executed). */
export async function runOfPhase(ctx: ServiceContext, phaseId: string): Promise<ExecutedRun> {
  const runId = `run-${tailOf(phaseId)}`;
  const run = await getExecutedRun(ctx, runId).catch(() => null);
  if (!run) throw notFound(`${phaseId} not found`);
  return run;
}

export const LOG_PURPOSE = 'run-log';

/** The signed path segment of a phase's log URL: `<expires>/<signature>` (go-tfe replaces the query). */
export async function logUrlPath(ctx: Pick<ServiceContext, 'db' | 'clock'>, phaseId: string): Promise<string> {
  const key = await signingKey(ctx.db);
  const q = new URLSearchParams(signedRunQuery(key, LOG_PURPOSE, phaseId, ctx.clock.now(), LOG_URL_TTL_SECONDS));
  return `${q.get('expires')}/${q.get('signature')}`;
}

const phaseOf = (phaseId: string): Phase => (phaseId.startsWith('apply-') ? 'apply' : 'plan');

/**
 * How many bytes a phase's log holds now, without reading them: a read waiting at the end of the
 * log (readLog checked its URL first) reads it again only once it grew.
 */
export async function logLength(ctx: Pick<ServiceContext, 'db'>, phaseId: string): Promise<number> {
  const row = await ctx.db
    .selectFrom('run_logs')
    .select(sql<number | string>`coalesce(sum(length(body)), 0)`.as('n'))
    .where('run_id', '=', `run-${tailOf(phaseId)}`)
    .where('phase', '=', phaseOf(phaseId))
    .executeTakeFirst();
  return Number(row?.n ?? 0);
}

/** A phase's log so far, checked against its signed URL (404 otherwise). */
export async function readLog(
  ctx: Pick<ServiceContext, 'db' | 'clock'>,
  phaseId: string,
  expires: string,
  signature: string,
): Promise<Buffer> {
  const key = await signingKey(ctx.db);
  if (!runUrlValid(key, LOG_PURPOSE, phaseId, expires, signature, ctx.clock.now()))
    throw notFound('log not found (or its URL has expired)');
  const phase = phaseOf(phaseId);
  // A run deleted since (with its workspace or organization) has no log, not an empty one.
  const run = await ctx.db
    .selectFrom('runs')
    .select('configuration_version_id')
    .where('id', '=', `run-${tailOf(phaseId)}`)
    .executeTakeFirst();
  if (!run || !isExecuted(run)) throw notFound('log not found (or its URL has expired)');
  const rows = await ctx.db
    .selectFrom('run_logs')
    .select('body')
    .where('run_id', '=', `run-${tailOf(phaseId)}`)
    .where('phase', '=', phase)
    .orderBy('seq')
    .execute();
  return Buffer.concat(rows.map((r) => Buffer.from(r.body)));
}
