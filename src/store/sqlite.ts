import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely } from 'kysely';
import { startCheckpointer, type Checkpointer } from './checkpointer.js';
import { registerSqliteFile } from './state-file-stage.js';
import { migrate } from './migrate.js';
import { registerDirectReads } from './direct-reads.js';
import { registerSqliteGeneration } from './security-generation.js';
import { cachingDatabase } from './statement-cache.js';
import { closeGroupCommit, GroupCommit, registerGroupCommit } from './group-commit.js';
import { WalSync } from './wal-sync.js';
import { BusyWaitingSqliteDialect, isSqliteBusy } from './sqlite-busy.js';
import type { DB } from './schema.js';
import type { Store } from './open.js';

/**
 * What an acknowledged write survives (SQLite files, WAL mode):
 * - `full`: a power cut or an operating system crash too. A write is answered only once the WAL
 *   frames of its commit are flushed to the disk: the writer connection commits with
 *   `synchronous=NORMAL` and the group commit flushes the WAL itself, once per batch, on libuv's
 *   thread pool rather than inside COMMIT on the event loop (wal-sync.ts says why). The main
 *   connection, which writes only at start-up (migrations), runs `synchronous=FULL`.
 * - `normal`: the crash or kill of the process (the commit is in the WAL, in the operating
 *   system's hands, when it is answered), but the last acknowledged writes before a power cut
 *   or an operating system crash may be lost. `synchronous=NORMAL` on both connections.
 * The database stays consistent either way.
 */
export type Durability = 'full' | 'normal';
export const DURABILITIES: readonly Durability[] = ['full', 'normal'];
export const DEFAULT_DURABILITY: Durability = 'full';

/** The durability asked for: the option, else `BERTH_DURABILITY`, else the default (a bad value is refused). */
export function durabilityOf(option?: string): Durability {
  const value = option ?? process.env.BERTH_DURABILITY ?? DEFAULT_DURABILITY;
  if ((DURABILITIES as readonly string[]).includes(value)) return value as Durability;
  throw new Error(`durability must be one of ${DURABILITIES.join(', ')} (got ${JSON.stringify(value)})`);
}

/** A connection with the pragmas berth relies on. */
function connect(path: string, synchronous: 'FULL' | 'NORMAL'): Database.Database {
  const sqlite = new Database(path);
  sqlite.pragma('busy_timeout = 10000');
  if (path !== ':memory:') sqlite.pragma('journal_mode = WAL');
  sqlite.pragma(`synchronous = ${synchronous}`);
  sqlite.pragma('foreign_keys = ON');
  return sqlite;
}

/**
 * Opens (creating if needed, with its folder) the SQLite file, sets the pragmas berth relies on
 * and runs pending migrations. `:memory:` gives a private in-memory database (tests).
 *
 * A file gets two connections: the main one for reads (and migrations), and, from the first write
 * transaction on, one for the write transactions and their group commit (group-commit.ts). An
 * in-memory database has one connection for both.
 */
export async function openSqliteStore(path: string, options: { durability?: Durability } = {}): Promise<Store> {
  const durability = durabilityOf(options.durability);
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = connect(path, durability === 'full' ? 'FULL' : 'NORMAL');
  const kysely = (conn: Database.Database) =>
    new Kysely<DB>({ dialect: new BusyWaitingSqliteDialect({ database: cachingDatabase(conn) }, conn) });
  const db = kysely(sqlite);
  try {
    await migrate(db, undefined, path === ':memory:' ? 'the database' : `the database ${path}`);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  // From now on no statement waits for a lock inside SQLite, which would block the event loop:
  // the dialect and writeTransaction wait between tries instead (sqlite-busy.ts). Opening and
  // migrating, before anything is served, may still wait there.
  sqlite.pragma('busy_timeout = 0');
  let checkpointer: Checkpointer | null = null;
  // The connections that commit: the writer's automatic checkpoints follow `offloadCheckpoints`.
  const committers = [sqlite];
  const pragmaOnCommitters = (pragma: string) => committers.forEach((c) => c.pragma(pragma));
  if (path !== ':memory:') {
    registerSqliteFile(db, path);
    registerGroupCommit(db, () => {
      const writer = connect(path, 'NORMAL');
      writer.pragma('busy_timeout = 0');
      // Each request of a batch runs in its own savepoint, so SQLite keeps the original of every
      // page the batch changes in a statement journal; past 64 KiB (16 pages: a batch of a few
      // creates) it spills that journal to a temporary file, a write for each page. In memory,
      // creates in bench/write-rate.mjs went from 2,150-2,230/s to 2,550-2,600/s in interleaved
      // runs (the workspace insert from 55 to 31 µs, the audit record's from 25 to 15 µs).
      writer.pragma('temp_store = MEMORY');
      writer.pragma(`wal_autocheckpoint = ${checkpointer ? 10000 : 1000}`);
      if (checkpointer) writer.pragma('journal_size_limit = 67108864');
      committers.push(writer);
      return new GroupCommit(kysely(writer), writer, durability === 'full' ? new WalSync(`${path}-wal`) : null);
    });
  }
  registerDirectReads(db, sqlite);
  registerSqliteGeneration(db, sqlite);
  const dataVersion = sqlite.prepare('pragma data_version').pluck();
  const totalChanges = sqlite.prepare('select total_changes()').pluck();
  let closed = false;
  return {
    kind: 'sqlite',
    db,
    path,
    durability,
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
      pragmaOnCommitters('wal_autocheckpoint = 10000');
      pragmaOnCommitters('journal_size_limit = 67108864');
      // Without the worker (it failed to start), SQLite's own automatic checkpoints take over again.
      checkpointer = startCheckpointer(path, undefined, () => {
        if (!closed) pragmaOnCommitters('wal_autocheckpoint = 1000');
      });
    },
    async close() {
      if (closed) return;
      closed = true;
      await closeGroupCommit(db);
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
  // Already dropped (serve runs optimize every 30 s): no write, and no statistics loaded again.
  if (sqlite.prepare('select exists (select 1 from sqlite_stat4)').pluck().get() === 0) return;
  sqlite.exec('delete from sqlite_stat4');
  // Loads the statistics again (those kept in memory still have the samples).
  sqlite.exec('analyze sqlite_schema');
}
