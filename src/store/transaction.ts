import { AsyncLocalStorage } from 'node:async_hooks';
import { sql, type Kysely } from 'kysely';
import type { DB } from './schema.js';

export type Tx = Kysely<DB>;

/**
 * Work that must commit together with every write transaction run inside a scope (the audit
 * trail: a change and its record commit or roll back as one). `beforeCommit` runs in the
 * transaction after its work succeeded; `afterCommit` once the commit is done.
 */
export interface CommitHook {
  beforeCommit(tx: Tx): Promise<void>;
  afterCommit(): void;
}

const commitHooks = new AsyncLocalStorage<CommitHook>();

/** Runs `fn` with `hook` attached to every write transaction it (asynchronously) starts. */
export function withCommitHook<T>(hook: CommitHook, fn: () => Promise<T>): Promise<T> {
  return commitHooks.run(hook, fn);
}

async function inTransaction<T>(db: Kysely<DB>, begin: 'begin' | 'begin immediate', fn: (tx: Tx) => Promise<T>): Promise<T> {
  const hook = begin === 'begin immediate' ? commitHooks.getStore() : undefined;
  return db.connection().execute(async (conn) => {
    await sql.raw(begin).execute(conn);
    try {
      const result = await fn(conn);
      if (hook) await hook.beforeCommit(conn);
      await sql`commit`.execute(conn);
      hook?.afterCommit();
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
