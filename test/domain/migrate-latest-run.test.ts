import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { seedOrganization, sqliteFreshUpTo } from './migrate-helpers.js';

describe('migration 044: a workspace’s latest run', () => {
  it('is its newest run that is not plan-only (assessments are), else its current run, else none', async () => {
    const db = await sqliteFreshUpTo(43);
    try {
      await seedOrganization(db, { projects: ['prj-a'], workspaces: ['ws-runs', 'ws-plans', 'ws-none'] });
      const run = (id: string, workspace_id: string, plan_only: number) => ({
        id,
        workspace_id,
        status: 'planned_and_finished',
        plan_only,
        created_at: 'now',
        updated_at: 'now',
      });
      // Inserted in this order: seq says which is newest.
      await db
        .insertInto('runs')
        .values([
          run('run-old', 'ws-runs', 0),
          run('run-new', 'ws-runs', 0),
          run('run-assessment', 'ws-runs', 1),
          run('run-plan', 'ws-plans', 1),
        ])
        .execute();
      await db.updateTable('workspaces').set({ current_run_id: 'run-plan' }).where('id', '=', 'ws-plans').execute();

      await migrate(db, MIGRATIONS);

      const rows = await db.selectFrom('workspaces').select(['id', 'latest_run_id']).orderBy('id').execute();
      expect(rows).toEqual([
        { id: 'ws-none', latest_run_id: null },
        { id: 'ws-plans', latest_run_id: 'run-plan' },
        { id: 'ws-runs', latest_run_id: 'run-new' },
      ]);
      const cols = await db.selectFrom('runs').select(['terraform_version', 'confirmed_by_user_id']).execute();
      expect(cols.every((c) => c.terraform_version === null && c.confirmed_by_user_id === null)).toBe(true);
    } finally {
      await db.destroy();
    }
  });
});
