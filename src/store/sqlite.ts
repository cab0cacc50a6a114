import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely } from 'kysely';
import { startCheckpointer, type Checkpointer } from './checkpointer.js';
import { registerSqliteFile } from './state-file-stage.js';
import { migrate } from './migrate.js';
import { registerDirectReads } from './direct-reads.js';
import { cachingDatabase } from './statement-cache.js';
import { BusyWaitingSqliteDialect, isSqliteBusy } from './sqlite-busy.js';
import type { DB } from './schema.js';
import type { Store } from './open.js';

/**
 * Opens (creating if needed, with its folder) the SQLite file, sets the pragmas berth relies on
 * and runs pending migrations. `:memory:` gives a private in-memory database (tests).
 *
 * Durability: `synchronous = NORMAL` in WAL mode. A commit survives the crash or kill of the
 * process (it is in the WAL, in the operating system's hands), but the last commits before a
 * power cut or a crash of the operating system may be lost; the database stays consistent.
 */
export async function openSqliteStore(path: string): Promise<Store> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path);
  sqlite.pragma('busy_timeout = 10000');
  if (path !== ':memory:') sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<DB>({ dialect: new BusyWaitingSqliteDialect({ database: cachingDatabase(sqlite) }, sqlite) });
  try {
    await migrate(db);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  // From now on no statement waits for a lock inside SQLite, which would block the event loop:
  // the dialect and writeTransaction wait between tries instead (sqlite-busy.ts). Opening and
  // migrating, before anything is served, may still wait there.
  sqlite.pragma('busy_timeout = 0');
  if (path !== ':memory:') registerSqliteFile(db, path);
  registerDirectReads(db, sqlite);
  const dataVersion = sqlite.prepare('pragma data_version').pluck();
  const totalChanges = sqlite.prepare('select total_changes()').pluck();
  let closed = false;
  let checkpointer: Checkpointer | null = null;
  return {
    kind: 'sqlite',
    db,
    path,
    optimize() {
      try {
        sqlite.pragma('optimize=0x10002');
        dropValueSamples(sqlite);
      } catch (err) {
        // Statistics are a help, not a need: skipped when another process holds the write lock.
        if (!isSqliteBusy(err)) throw err;
      }
      return Promise.resolve();
    },
    changeStamp() {
      return `${dataVersion.get() as number}:${totalChanges.get() as number}`;
    },
    offloadCheckpoints() {
      if (path === ':memory:' || checkpointer) return;
      // A bound on the WAL should the worker fall behind (about 40 MB), and its size once reset.
      sqlite.pragma('wal_autocheckpoint = 10000');
      sqlite.pragma('journal_size_limit = 67108864');
      // Without the worker (it failed to start), SQLite's own automatic checkpoints take over again.
      checkpointer = startCheckpointer(path, undefined, () => {
        if (!closed) sqlite.pragma('wal_autocheckpoint = 1000');
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}

/**
 * Keeps the planner's row counts per index (`sqlite_stat1`) but drops its samples of index values
 * (`sqlite_stat4`, which the SQLite of better-sqlite3 collects on ANALYZE), and reloads the
 * statistics. With samples, the planner estimates `column = ?` from the bound value, so SQLite
 * marks the prepared statement as depending on that value and prepares it again (parse and plan)
 * every time a new value is bound: every run of berth's point queries (a workspace by id or
 * name, a user's teams) was prepared again, about 15% of the CPU time of an uncached workspace
 * GET. The counts alone choose the same indexes for berth's queries (bench/list-scale.mjs).
 */
function dropValueSamples(sqlite: Database.Database): void {
  const samples = sqlite.prepare(`select count(*) from sqlite_schema where name = 'sqlite_stat4'`).pluck().get();
  if (samples === 0) return;
  sqlite.exec('delete from sqlite_stat4');
  // Loads the statistics again (those kept in memory still have the samples).
  sqlite.exec('analyze sqlite_schema');
}
