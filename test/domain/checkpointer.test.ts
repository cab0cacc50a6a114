import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { openStore } from '../../src/store/open.js';

/** The rows of `settings` that the database file alone holds (its WAL left aside). */
function rowsInMainFile(dir: string, file: string): number {
  const copy = join(dir, `copy-${Date.now()}-${Math.random()}.db`);
  copyFileSync(file, copy);
  const db = new Database(copy, { readonly: true });
  try {
    return (db.prepare("select count(*) as n from settings where key like 'k%'").get() as { n: number }).n;
  } finally {
    db.close();
  }
}

describe('SQLite checkpoints in a worker thread (serve)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'berth-ckpt-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('copies committed writes into the database file without any commit doing it, and stops on close', async () => {
    const file = join(dir, 'berth.db');
    const store = await openStore(file);
    store.offloadCheckpoints();
    for (let i = 0; i < 300; i++)
      await store.db
        .insertInto('settings')
        .values({ key: `k${i}`, value: 'v' })
        .execute();
    // Far below the automatic threshold that offloading sets: only the worker checkpoints them.
    await expect.poll(() => rowsInMainFile(dir, file), { timeout: 5000, interval: 50 }).toBe(300);
    await store.close();
    const again = await openStore(file);
    expect((await again.db.selectFrom('settings').select('key').where('key', 'like', 'k%').execute()).length).toBe(300);
    await again.close();
  });
});
