import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { seedOrganization, sqliteFreshUpTo } from './migrate-helpers.js';

describe('migration 042: the current configuration version of each workspace', () => {
  it('names the newest uploaded version neither speculative nor provisional, or a provisional one that applied', async () => {
    const db = await sqliteFreshUpTo(41);
    try {
      await seedOrganization(db, { projects: ['prj-a'], workspaces: ['ws-a', 'ws-b', 'ws-c', 'ws-d'] });
      const cv = (id: string, workspace: string, status: string, speculative = 0, provisional = 0) => ({
        id,
        workspace_id: workspace,
        status,
        source: 'tfe-api',
        speculative,
        provisional,
        created_at: 'now',
      });
      // Inserted in this order: seq follows it.
      await db
        .insertInto('configuration_versions')
        .values([
          cv('cv-a1', 'ws-a', 'uploaded'),
          cv('cv-a2', 'ws-a', 'uploaded'),
          cv('cv-a3', 'ws-a', 'uploaded', 1), // speculative: never current
          cv('cv-a4', 'ws-a', 'pending'), // not uploaded
          cv('cv-b1', 'ws-b', 'uploaded'),
          cv('cv-b2', 'ws-b', 'uploaded', 0, 1), // provisional, applied below: current
          cv('cv-c1', 'ws-c', 'uploaded', 0, 1), // provisional, never applied
          cv('cv-c2', 'ws-c', 'uploaded', 1),
        ])
        .execute();
      const run = (id: string, workspace: string, version: string, status: string) => ({
        id,
        workspace_id: workspace,
        configuration_version_id: version,
        status,
        created_at: 'now',
        updated_at: 'now',
      });
      await db
        .insertInto('runs')
        .values([run('run-b', 'ws-b', 'cv-b2', 'applied'), run('run-c', 'ws-c', 'cv-c1', 'planned_and_saved')])
        .execute();

      await migrate(db, MIGRATIONS);

      const rows = await db
        .selectFrom('workspaces')
        .select(['id', 'current_configuration_version_id'])
        .orderBy('id')
        .execute();
      expect(rows).toEqual([
        { id: 'ws-a', current_configuration_version_id: 'cv-a2' },
        { id: 'ws-b', current_configuration_version_id: 'cv-b2' },
        { id: 'ws-c', current_configuration_version_id: null },
        { id: 'ws-d', current_configuration_version_id: null },
      ]);
    } finally {
      await db.destroy();
    }
  });
});
