import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { startCheckpointer, type Checkpointer } from './checkpointer.js';
import { migrate } from './migrate.js';
import { cachingDatabase } from './statement-cache.js';
import type { DB } from './schema.js';
import type { Store } from './open.js';

/**
 * Opens (creating if needed, with its folder) the SQLite file, sets the pragmas berth relies on
 * and runs pending migrations. `:memory:` gives a private in-memory database (tests).
 */
export async function openSqliteStore(path: string): Promise<Store> {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new Database(path);
  sqlite.pragma('busy_timeout = 10000');
  if (path !== ':memory:') sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  const db = new Kysely<DB>({ dialect: new SqliteDialect({ database: cachingDatabase(sqlite) }) });
  try {
    await migrate(db);
  } catch (err) {
    await db.destroy();
    throw err;
  }
  const dataVersion = sqlite.prepare('pragma data_version').pluck();
  const totalChanges = sqlite.prepare('select total_changes()').pluck();
  let closed = false;
  let checkpointer: Checkpointer | null = null;
  return {
    kind: 'sqlite',
    db,
    path,
    optimize() {
      sqlite.pragma('optimize=0x10002');
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
      checkpointer = startCheckpointer(path);
    },
    async close() {
      if (closed) return;
      closed = true;
      await checkpointer?.stop();
      await db.destroy();
    },
  };
}
