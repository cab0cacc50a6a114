import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { seedOrganization, sqliteFreshUpTo } from './migrate-helpers.js';

describe('migration 040: variable set variable versions and link order', () => {
  it('gives each stored variable a fresh version and keeps the links in their former (id) order', async () => {
    const db = await sqliteFreshUpTo(39);
    try {
      await seedOrganization(db, {
        projects: ['prj-b', 'prj-a'],
        workspaces: ['ws-c', 'ws-a', 'ws-b'],
        projectId: 'prj-a',
      });
      await db
        .insertInto('varsets')
        .values({
          id: 'varset-1',
          organization_id: 'org-1',
          name: 's',
          name_lower: 's',
          created_at: 'now',
          updated_at: 'now',
        })
        .execute();
      await db
        .insertInto('varset_variables')
        .values(
          ['var-1', 'var-2'].map((id) => ({
            id,
            varset_id: 'varset-1',
            key: id,
            category: 'env',
            created_at: 'now',
          })),
        )
        .execute();
      await db
        .insertInto('varset_workspaces')
        .values(['ws-c', 'ws-a', 'ws-b'].map((workspace_id) => ({ varset_id: 'varset-1', workspace_id })))
        .execute();
      await db
        .insertInto('varset_projects')
        .values(['prj-b', 'prj-a'].map((project_id) => ({ varset_id: 'varset-1', project_id })))
        .execute();

      await migrate(db, MIGRATIONS);

      const vars = await db.selectFrom('varset_variables').select(['id', 'version_id']).orderBy('id').execute();
      expect(vars).toHaveLength(2);
      for (const v of vars) expect(v.version_id).toMatch(/^[0-9a-f]{36}$/);
      expect(vars[0].version_id).not.toBe(vars[1].version_id);
      const wss = await db.selectFrom('varset_workspaces').select(['workspace_id', 'seq']).orderBy('seq').execute();
      expect(wss.map((r) => [r.workspace_id, Number(r.seq)])).toEqual([
        ['ws-a', 1],
        ['ws-b', 2],
        ['ws-c', 3],
      ]);
      const prjs = await db.selectFrom('varset_projects').select(['project_id', 'seq']).orderBy('seq').execute();
      expect(prjs.map((r) => [r.project_id, Number(r.seq)])).toEqual([
        ['prj-a', 1],
        ['prj-b', 2],
      ]);
    } finally {
      await db.destroy();
    }
  });
});
