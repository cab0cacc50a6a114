import { describe, expect, it } from 'vitest';
import { migrate } from '../../src/store/migrate.js';
import { MIGRATIONS } from '../../src/store/migrations/index.js';
import { openStore } from '../../src/store/open.js';

describe('migrations', () => {
  it('are recorded, and a second run applies nothing', async () => {
    const store = await openStore(':memory:');
    const versions = (await store.db.selectFrom('berth_migrations').select('version').orderBy('version').execute()).map((r) => r.version);
    expect(versions).toEqual(MIGRATIONS.map((m) => m.version).sort((a, b) => a - b));
    expect(await migrate(store.db)).toBe(0);
    await store.close();
  });

  it('apply one that is missing even when a higher-numbered one is already applied', async () => {
    const store = await openStore(':memory:');
    let ran = 0;
    const late = { version: 4, name: 'merged-late', up: async () => void ran++ };
    expect(await migrate(store.db, [...MIGRATIONS, late])).toBe(1);
    expect(ran).toBe(1);
    expect(await migrate(store.db, [...MIGRATIONS, late])).toBe(0);
    await store.close();
  });
});
