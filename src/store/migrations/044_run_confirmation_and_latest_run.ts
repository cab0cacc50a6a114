import { sql, type Kysely } from 'kysely';

/**
 * What HCP Terraform shows of a run and its workspace that berth did not keep (issue 43):
 * - `runs.terraform_version`: the Terraform version a plan-only run asked for (`terraform-version`
 *   at creation; null: the workspace's applies).
 * - `runs.confirmed_by_user_id`: the user who confirmed the run's apply (`confirmed-by`); null
 *   when nobody did (auto-apply, a token that is no user's) or it is not confirmed.
 * - `runs.force_cancel_available_at`: when a force-cancel of the run becomes possible, set by
 *   its first cancel (`force-cancel-available-at`); null before any cancel.
 * - `workspaces.latest_run_id`: the workspace's newest run (`latest-run`), assessments aside;
 *   filled here with the newest run each workspace has that is not plan-only (the assessments
 *   are), else its current run.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('runs').addColumn('terraform_version', 'text').execute();
  await db.schema.alterTable('runs').addColumn('confirmed_by_user_id', 'text').execute();
  await db.schema.alterTable('runs').addColumn('force_cancel_available_at', 'text').execute();
  await db.schema.alterTable('workspaces').addColumn('latest_run_id', 'text').execute();
  // A correlated subquery both SQLite and PostgreSQL run; the runs' (workspace_id, seq) order.
  await sql`update workspaces set latest_run_id = coalesce(
      (select runs.id from runs where runs.workspace_id = workspaces.id and runs.plan_only = 0
        order by runs.seq desc limit 1),
      workspaces.current_run_id)`.execute(db);
}
