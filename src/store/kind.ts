import { PostgresAdapter, type Kysely } from 'kysely';

/** Whether a kysely instance (or a transaction of it) talks to PostgreSQL rather than SQLite. */
export function isPostgres<T>(db: Kysely<T>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * The key of PostgreSQL's transaction-level advisory lock that every berth write transaction
 * takes first, on every instance: writes are serialised across instances as SQLite's
 * `BEGIN IMMEDIATE` serialises them across processes (see transaction.ts). ("berth" in ASCII.)
 */
export const WRITE_LOCK_KEY = 0x6265727468;

/** The session-level advisory lock held while migrations run, so that they run once. */
export const MIGRATION_LOCK_KEY = 0x6265727469;
