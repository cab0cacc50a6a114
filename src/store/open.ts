import type { Kysely } from 'kysely';
import { parseDatabaseLocation, type DatabaseLocation } from './location.js';
import type { DB } from './schema.js';
import { openSqliteStore, type Durability } from './sqlite.js';

export type { Durability } from './sqlite.js';

export interface Store {
  /** Which engine: the embedded SQLite file, or a PostgreSQL database shared by instances. */
  kind: 'sqlite' | 'postgres';
  db: Kysely<DB>;
  /** The SQLite file, or the PostgreSQL URL with its password hidden (for messages). */
  path: string;
  /** SQLite: how commits are flushed (sqlite.ts, `Durability`); PostgreSQL: the server's own setting. */
  durability?: Durability;
  /**
   * Changes whenever the database may have changed; equal stamps mean no write committed in
   * between (serve's read cache relies on it). SQLite: `data_version` (moved by commits of other
   * connections and processes) and this connection's `total_changes()`. PostgreSQL: the server's
   * current snapshot (`pg_current_snapshot()`: its next transaction id and those in progress),
   * which moves when any transaction that writes starts or commits, on any instance.
   */
  changeStamp: () => string | Promise<string>;
  /**
   * Refreshes the query planner's statistics where they are missing or stale (SQLite's
   * `PRAGMA optimize`; PostgreSQL's autovacuum does this itself). Without them, SQLite may walk
   * the name index of 100,000 workspaces instead of starting from the few a tag filter selects.
   * `serve` runs it at start; it is quick on a database whose statistics are current.
   */
  optimize(): Promise<void>;
  /**
   * For a long-running server: SQLite's WAL checkpoints move to a worker thread with its own
   * connection (checkpointer.ts), instead of running inside every few-hundredth commit.
   */
  offloadCheckpoints(): void;
  close(): Promise<void>;
}

/**
 * Opens berth's database and runs pending migrations: a SQLite file path (or `:memory:`), a
 * `sqlite:` URL, a `postgres://` URL, or a parsed location. PostgreSQL support (and the `pg`
 * driver) is loaded only when asked for.
 */
export async function openStore(
  location: string | DatabaseLocation,
  options: { durability?: Durability } = {},
): Promise<Store> {
  const where =
    typeof location === 'string'
      ? location === ':memory:'
        ? { kind: 'sqlite' as const, path: location }
        : parseDatabaseLocation(location)
      : location;
  if (where.kind === 'sqlite') return openSqliteStore(where.path, options);
  const { openPostgresStore } = await import('./postgres.js');
  return openPostgresStore(where.url);
}
