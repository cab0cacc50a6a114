import Database from 'better-sqlite3';
import { Kysely, sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DB } from '../../src/store/schema.js';
import { BusyWaitingSqliteDialect, LOCK_WAIT_MS } from '../../src/store/sqlite-busy.js';
import { readTransaction, writeTransaction } from '../../src/store/transaction.js';
import { tempDb } from '../helpers/cli.js';

/**
 * Reads meet SQLITE_BUSY only in rare cases in WAL mode (a WAL recovery by another process). In
 * rollback-journal mode every read meets it while another connection holds an exclusive lock:
 * this test uses that to check that refused statements wait like writes do, tried again after
 * short pauses with the event loop running in between, instead of inside SQLite.
 */
describe('statements refused with SQLITE_BUSY', () => {
  const tmp = tempDb();
  let sqlite: Database.Database;
  let db: Kysely<DB>;
  let other: Database.Database;

  beforeAll(() => {
    sqlite = new Database(tmp.db);
    sqlite.pragma('journal_mode = DELETE');
    sqlite.pragma('busy_timeout = 0');
    sqlite.exec('create table items (x integer)');
    sqlite.exec('insert into items values (1), (2)');
    db = new Kysely<DB>({ dialect: new BusyWaitingSqliteDialect({ database: sqlite }, sqlite) });
    other = new Database(tmp.db);
  });
  afterAll(async () => {
    other?.close();
    await db?.destroy();
    tmp.cleanup();
  });

  const count = (q: Kysely<DB>) => sql<{ n: number }>`select count(*) as n from items`.execute(q);

  /**
   * Runs `work` while `other` (a connection of this very thread) holds an exclusive lock on the
   * file (no one may read), released only once the event loop has turned `turns` times meanwhile:
   * a statement waiting inside SQLite blocks the event loop, so it never sees the lock released and
   * fails. Waits for events, not for time, so a loaded machine changes nothing. `waited` says the
   * work ended only after the release (it was refused, not let through).
   */
  const lockedOut = async <T>(work: () => Promise<T>, turns = 20): Promise<{ result: T; waited: boolean }> => {
    other.exec('begin exclusive');
    let ticks = 0;
    let released = false;
    const ticker = setInterval(() => {
      if (++ticks < turns || released) return;
      released = true;
      other.exec('commit');
    }, 2);
    try {
      const result = await work();
      return { result, waited: released };
    } finally {
      clearInterval(ticker);
      if (!released) other.exec('commit');
    }
  };

  it('a plain read and a read transaction are tried again without blocking the event loop', async () => {
    const plain = await lockedOut(() => count(db));
    expect(plain.result.rows[0].n).toBe(2);
    expect(plain.waited).toBe(true);

    const inTx = await lockedOut(() => readTransaction(db, (tx) => count(tx)));
    expect(inTx.result.rows[0].n).toBe(2);
    expect(inTx.waited).toBe(true);
  });

  it('a write transaction waits for the lock the same way, then commits', async () => {
    const write = await lockedOut(() =>
      writeTransaction(db, async (tx) => {
        await sql`insert into items values (3)`.execute(tx);
        return 'committed';
      }),
    );
    expect(write.result).toBe('committed');
    expect(write.waited).toBe(true);
    expect((await count(db)).rows[0].n).toBe(3);
  });

  it('gives up after the bound with the SQLITE_BUSY error (the API answers it 503)', async () => {
    expect(LOCK_WAIT_MS).toBe(10_000);
    other.exec('begin exclusive');
    try {
      const started = performance.now();
      await expect(count(db)).rejects.toMatchObject({ code: 'SQLITE_BUSY' });
      expect(performance.now() - started).toBeGreaterThan(9_500);
    } finally {
      other.exec('commit');
    }
  }, 20_000);
});
