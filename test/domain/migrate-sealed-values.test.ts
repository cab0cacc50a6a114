import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { seedOrganization, sqliteFreshUpTo } from './migrate-helpers.js';

describe('migration 041: sealed values', () => {
  it('keeps every stored value as it was, in clear (sealed = 0), found by the partial index until a start seals it', async () => {
    const db = await sqliteFreshUpTo(40);
    try {
      await seedOrganization(db, { projects: ['prj-a'], workspaces: ['ws-a'] });
      const row = (id: string, key: string, sensitive: number) => ({
        id,
        workspace_id: 'ws-a',
        key,
        value: `value-of-${key}`,
        category: 'env',
        sensitive,
        version_id: 'v',
        created_at: 'now',
        updated_at: 'now',
      });
      await db
        .insertInto('workspace_variables')
        .values([row('var-1', 'TOKEN', 1), row('var-2', 'REGION', 0)])
        .execute();

      await migrate(db, MIGRATIONS);

      const rows = await db.selectFrom('workspace_variables').select(['id', 'value', 'sealed']).orderBy('id').execute();
      expect(rows).toEqual([
        { id: 'var-1', value: 'value-of-TOKEN', sealed: 0 },
        { id: 'var-2', value: 'value-of-REGION', sealed: 0 },
      ]);
      // The query a start asks reads the partial index, not the table.
      const plan = await sql<{ detail: string }>`explain query plan
        select seq from workspace_variables where sensitive = 1 and sealed = 0 limit 1`.execute(db);
      expect(plan.rows.map((r) => r.detail).join(' ')).toContain('workspace_variables_clear_sensitive');
    } finally {
      await db.destroy();
    }
  });
});
