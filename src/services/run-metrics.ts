import { computeMetrics, METRICS_WINDOW, type RunMetrics } from '../domain/run.js';
import type { Tx } from '../store/transaction.js';

/** The performance attributes of each workspace, from its past runs that errored or applied. */
export async function metricsOf(db: Tx, workspaceIds: string[]): Promise<Map<string, RunMetrics>> {
  const out = new Map<string, RunMetrics>();
  for (const id of workspaceIds) {
    const rows = await db
      .selectFrom('runs')
      .select(['status', 'plan_started_at', 'plan_finished_at', 'apply_started_at', 'apply_finished_at', 'policy_check_failed'])
      .where('workspace_id', '=', id)
      .where('status', 'in', ['applied', 'errored'])
      .orderBy('seq', 'desc')
      .limit(METRICS_WINDOW)
      .execute();
    out.set(
      id,
      computeMetrics(
        rows.map((r) => ({
          status: r.status,
          planStartedAt: r.plan_started_at,
          planFinishedAt: r.plan_finished_at,
          applyStartedAt: r.apply_started_at,
          applyFinishedAt: r.apply_finished_at,
          policyCheckFailed: r.policy_check_failed === 1,
        })),
      ),
    );
  }
  return out;
}
