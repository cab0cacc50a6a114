import { createHash } from 'node:crypto';
import { PostgresAdapter, type Kysely } from 'kysely';

/** Whether a kysely instance (or a transaction of it) talks to PostgreSQL rather than SQLite. */
export function isPostgres<T>(db: Kysely<T>): boolean {
  return db.getExecutor().adapter instanceof PostgresAdapter;
}

/**
 * The key of PostgreSQL's transaction-level advisory lock that every berth write transaction
 * takes first, on every instance: shared by a write confined to one organization (which then
 * takes its organization's key), exclusive for every other write, so that writes are serialised
 * across instances as SQLite's `BEGIN IMMEDIATE` serialises them across processes, per
 * organization (see transaction.ts, `beginPostgresWrite`). ("berth" in ASCII.)
 */
export const WRITE_LOCK_KEY = 0x6265727468;

/**
 * The advisory lock key of one organization's writes: a stable 64-bit hash of its id (ids never
 * change, names do; every instance derives the same key), as a decimal string for the driver.
 * The key is always negative (the top bit set), so it never equals berth's own keys above, which
 * are positive. Two organizations sharing a key (a 2^-63 chance) would only take turns.
 */
export function organizationLockKey(organizationId: string): string {
  const hash = createHash('sha256').update(organizationId).digest().readBigUInt64BE(0);
  return BigInt.asIntN(64, hash | (1n << 63n)).toString();
}

/** The session-level advisory lock held while migrations run, so that they run once. */
export const MIGRATION_LOCK_KEY = 0x6265727469;
