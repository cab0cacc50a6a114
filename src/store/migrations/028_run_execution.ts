import type { Kysely } from 'kysely';

/**
 * Runs that berth executes (`berth serve --execute-runs`, issue 34):
 * - `configuration_versions`: the configuration a run plans, uploaded as a `tar.gz` through a
 *   signed URL (status `pending` until then, `uploaded` after); `configuration_files` keeps the
 *   archive's bytes (one row per version, bounded in size by the upload route).
 * - `runs` gains what an executed run needs: its configuration version, its options (plan-only,
 *   refresh, refresh-only, auto-apply, allow-empty-apply, targets, replacements, run variables as
 *   JSON), its plan's and apply's statuses and resource counts, whether the plan has changes,
 *   HCP's status timestamps (JSON), and who claimed it (so that each run executes once).
 * - `run_logs`: the plan and apply logs as chunks in the order written.
 * Runs recorded before (reported by an external executor) have no configuration version.
 */
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('configuration_versions')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('id', 'text', (c) => c.notNull().unique())
    .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('source', 'text', (c) => c.notNull())
    .addColumn('speculative', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('provisional', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('auto_queue_runs', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('size', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error_message', 'text')
    .addColumn('created_by_kind', 'text')
    .addColumn('created_by_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('uploaded_at', 'text')
    .execute();
  await db.schema
    .createIndex('configuration_versions_workspace')
    .on('configuration_versions')
    .columns(['workspace_id', 'seq'])
    .execute();
  await db.schema
    .createTable('configuration_files')
    .addColumn('configuration_version_id', 'text', (c) =>
      c.primaryKey().references('configuration_versions.id').onDelete('cascade'),
    )
    .addColumn('body', 'blob', (c) => c.notNull())
    .execute();

  const columns: [string, 'text' | 'integer', number?][] = [
    ['configuration_version_id', 'text'],
    ['plan_only', 'integer', 0],
    ['refresh', 'integer', 1],
    ['refresh_only', 'integer', 0],
    ['auto_apply', 'integer', 0],
    ['allow_empty_apply', 'integer', 0],
    ['target_addrs', 'text'],
    ['replace_addrs', 'text'],
    ['variables', 'text'],
    ['has_changes', 'integer', 0],
    ['plan_status', 'text'],
    ['apply_status', 'text'],
    ['plan_additions', 'integer'],
    ['plan_changes', 'integer'],
    ['plan_destructions', 'integer'],
    ['apply_additions', 'integer'],
    ['apply_changes', 'integer'],
    ['apply_destructions', 'integer'],
    ['status_timestamps', 'text'],
    ['claimed_by', 'text'],
    ['cancel_requested', 'integer', 0],
  ];
  for (const [name, type, dflt] of columns) {
    await db.schema
      .alterTable('runs')
      .addColumn(name, type, (c) => (dflt === undefined ? c : c.notNull().defaultTo(dflt)))
      .execute();
  }
  await db.schema.createIndex('runs_status').on('runs').columns(['status', 'seq']).execute();

  await db.schema
    .createTable('run_logs')
    .addColumn('seq', 'integer', (c) => c.primaryKey().autoIncrement())
    .addColumn('run_id', 'text', (c) => c.notNull().references('runs.id').onDelete('cascade'))
    .addColumn('phase', 'text', (c) => c.notNull())
    .addColumn('body', 'blob', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('run_logs_run').on('run_logs').columns(['run_id', 'phase', 'seq']).execute();
}
