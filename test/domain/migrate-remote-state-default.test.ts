import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { seedOrganization, sqliteFreshUpTo } from './migrate-helpers.js';

/**
 * Migration 045: an instance that held organizations before the self-hosted default of
 * `default-remote-state-access` became true keeps false, unless a site administrator had chosen;
 * a new database keeps no choice (the new default).
 */
describe('migration 045: the remote state default an upgraded instance had', () => {
  const upgrade = (db: Awaited<ReturnType<typeof sqliteFreshUpTo>>) =>
    migrate(
      db,
      MIGRATIONS.filter((m) => m.version <= 45),
    );
  const stored = async (db: Awaited<ReturnType<typeof sqliteFreshUpTo>>) =>
    (
      await db
        .selectFrom('settings')
        .select('value')
        .where('key', '=', 'default-remote-state-access')
        .executeTakeFirst()
    )?.value ?? null;

  it('stores false for a database with organizations and no choice', async () => {
    const db = await sqliteFreshUpTo(44);
    try {
      await seedOrganization(db, { projects: ['prj-a'], workspaces: ['ws-a'] });
      await upgrade(db);
      expect(await stored(db)).toBe('false');
    } finally {
      await db.destroy();
    }
  });

  it('keeps a choice a site administrator made, and stores nothing in a new database', async () => {
    const chose = await sqliteFreshUpTo(44);
    const fresh = await sqliteFreshUpTo(44);
    try {
      await seedOrganization(chose, { projects: ['prj-a'], workspaces: [] });
      await chose.insertInto('settings').values({ key: 'default-remote-state-access', value: 'true' }).execute();
      await upgrade(chose);
      expect(await stored(chose)).toBe('true');
      await upgrade(fresh);
      expect(await stored(fresh)).toBeNull();
    } finally {
      await chose.destroy();
      await fresh.destroy();
    }
  });
});
