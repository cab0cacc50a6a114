import { computeMetrics, METRICS_WINDOW, type RunMetrics } from '../../domain/runs/run.js';
import { queryByIds } from '../../store/memo-query.js';
import type { Tx } from '../../store/transaction.js';
import { notAnAssessment } from './assessment-runs.js';

/** The newest METRICS_WINDOW runs of each workspace that errored or applied, newest first. */
const selectRecentRuns = queryByIds((db, workspaceIds) => {
  const ranked = db
    .selectFrom('runs')
    .select([
      'workspace_id',
      'seq',
      'status',
      'plan_started_at',
      'plan_finished_at',
      'apply_started_at',
      'apply_finished_at',
      'policy_check_failed',
    ])
    .select((eb) =>
      eb.fn
        .agg<number>('row_number')
        .over((ob) => ob.partitionBy('workspace_id').orderBy('seq', 'desc'))
        .as('rank'),
    )
    .where('workspace_id', 'in', workspaceIds)
    .where('status', 'in', ['applied', 'errored'])
    .where(notAnAssessment);
  return db
    .selectFrom(ranked.as('r'))
    .selectAll()
    .where('rank', '<=', METRICS_WINDOW)
    .orderBy('workspace_id')
    .orderBy('seq', 'desc');
});

/**
 * The performance attributes of each workspace, from its past runs that errored or applied. One
 * query for all the workspaces (a page of a list asks for 100): the newest METRICS_WINDOW runs of
 * each, numbered per workspace by a window function. A workspace without a current run has never
 * had one (creating a run sets `current_run_id` in the same transaction, runs.ts, and nothing
 * clears it): it is not asked about, and gets the metrics of no runs.
 */
export async function metricsOf(
  db: Tx,
  workspaces: { id: string; current_run_id: string | null }[],
): Promise<Map<string, RunMetrics>> {
  const byWorkspace = new Map<string, Parameters<typeof computeMetrics>[0]>();
  for (const w of workspaces) byWorkspace.set(w.id, []);
  const workspaceIds = workspaces.filter((w) => w.current_run_id !== null).map((w) => w.id);
  if (workspaceIds.length > 0) {
    const rows = await selectRecentRuns(db, workspaceIds);
    for (const r of rows) {
      byWorkspace.get(r.workspace_id)?.push({
        status: r.status,
        planStartedAt: r.plan_started_at,
        planFinishedAt: r.plan_finished_at,
        applyStartedAt: r.apply_started_at,
        applyFinishedAt: r.apply_finished_at,
        policyCheckFailed: r.policy_check_failed === 1,
      });
    }
  }
  const out = new Map<string, RunMetrics>();
  for (const [id, runs] of byWorkspace) out.set(id, computeMetrics(runs));
  return out;
}
