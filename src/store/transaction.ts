import { sql, type Kysely } from 'kysely';
import type { DB } from './schema.js';

export type Tx = Kysely<DB>;

async function inTransaction<T>(db: Kysely<DB>, begin: 'begin' | 'begin immediate', fn: (tx: Tx) => Promise<T>): Promise<T> {
  return db.connection().execute(async (conn) => {
    await sql.raw(begin).execute(conn);
    try {
      const result = await fn(conn);
      await sql`commit`.execute(conn);
      return result;
    } catch (err) {
      await sql`rollback`.execute(conn).catch(() => undefined);
      throw err;
    }
  });
}

/**
 * Runs `fn` in one write transaction that takes the database's write lock at its start
 * (SQLite `BEGIN IMMEDIATE`), so that operations which race (locks, unique names, moves) are
 * serialised across connections and processes. Commits on success, rolls back on any error.
 */
export function writeTransaction<T>(db: Kysely<DB>, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return inTransaction(db, 'begin immediate', fn);
}

/** A read transaction: one consistent snapshot for several queries. */
export function readTransaction<T>(db: Kysely<DB>, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return inTransaction(db, 'begin', fn);
}
