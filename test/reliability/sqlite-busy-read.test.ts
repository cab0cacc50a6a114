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

  /** `other` holds an exclusive lock on the file (no one may read) for `ms`. */
  const lockOut = (ms: number) => {
    other.exec('begin exclusive');
    setTimeout(() => other.exec('commit'), ms);
  };
  const count = (q: Kysely<DB>) => sql<{ n: number }>`select count(*) as n from items`.execute(q);

  /** The longest the event loop was blocked while `work` ran. */
  const longestStall = async <T>(work: () => Promise<T>): Promise<{ result: T; stall: number; took: number }> => {
    let last = performance.now();
    let stall = 0;
    const ticker = setInterval(() => {
      stall = Math.max(stall, performance.now() - last);
      last = performance.now();
    }, 2);
    const started = performance.now();
    try {
      const result = await work();
      stall = Math.max(stall, performance.now() - last);
      return { result, stall, took: performance.now() - started };
    } finally {
      clearInterval(ticker);
    }
  };

  it('a plain read and a read transaction are tried again without blocking the event loop', async () => {
    lockOut(300);
    const plain = await longestStall(() => count(db));
    expect(plain.result.rows[0].n).toBe(2);
    expect(plain.took).toBeGreaterThan(250);
    expect(plain.stall).toBeLessThan(100);

    lockOut(300);
    const inTx = await longestStall(() => readTransaction(db, (tx) => count(tx)));
    expect(inTx.result.rows[0].n).toBe(2);
    expect(inTx.took).toBeGreaterThan(250);
    expect(inTx.stall).toBeLessThan(100);
  });

  it('a write transaction waits for the lock the same way, then commits', async () => {
    lockOut(300);
    const write = await longestStall(() =>
      writeTransaction(db, async (tx) => {
        await sql`insert into items values (3)`.execute(tx);
        return 'committed';
      }),
    );
    expect(write.result).toBe('committed');
    expect(write.took).toBeGreaterThan(250);
    expect(write.stall).toBeLessThan(100);
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
