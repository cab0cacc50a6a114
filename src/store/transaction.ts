import { CompiledQuery, Kysely, sql } from 'kysely';
import { groupCommitOf } from './group-commit.js';
import { isPostgres, WRITE_LOCK_KEY } from './kind.js';
import { isSqliteBusy, lockRetryDelay, LOCK_WAIT_MS, sleep } from './sqlite-busy.js';
import type { DB } from './schema.js';

export type Tx = Kysely<DB>;

/**
 * Work that must commit together with every write transaction of a request (the audit trail: a
 * change and its record commit or roll back as one). `beforeCommit` runs in the transaction after
 * its work succeeded, with what the work returned; `afterCommit` once the commit is done.
 */
export interface CommitHook {
  beforeCommit(tx: Tx, result: unknown): Promise<void>;
  afterCommit(): void;
}

/**
 * Where a write transaction runs: the database, and the commit hook of the request it serves, if
 * any. A service context is one (the API puts the request's hook in it), so services pass `ctx`.
 */
export interface TransactionScope {
  db: Kysely<DB>;
  commitHook?: CommitHook;
}

/**
 * How a transaction starts on each engine.
 * - SQLite: `BEGIN IMMEDIATE` takes the database's write lock at once, for every connection and
 *   process on the file, or waits for it without blocking the event loop (see
 *   `sqliteWriteTransaction`); a read transaction is a plain `BEGIN` (one snapshot).
 * - PostgreSQL: a write transaction first takes one transaction-level advisory lock, the same on
 *   every instance, so writes take turns across all instances exactly as on SQLite, and each
 *   statement (read committed) sees every write committed before it. A read transaction is
 *   `REPEATABLE READ`: one snapshot for all its queries.
 */
const BEGIN_IMMEDIATE = CompiledQuery.raw('begin immediate');
const BEGIN = CompiledQuery.raw('begin');
const COMMIT = CompiledQuery.raw('commit');

async function begin(conn: Tx, write: boolean): Promise<void> {
  if (!isPostgres(conn)) {
    await conn.executeQuery(write ? BEGIN_IMMEDIATE : BEGIN);
  } else if (write) {
    await sql`begin`.execute(conn);
    await sql`select pg_advisory_xact_lock(${sql.lit(WRITE_LOCK_KEY)})`.execute(conn);
  } else {
    await sql`begin isolation level repeatable read`.execute(conn);
  }
}

async function inTransaction<T>(
  db: Kysely<DB>,
  hook: CommitHook | undefined,
  write: boolean,
  fn: (tx: Tx) => Promise<T>,
): Promise<T> {
  if (write && !isPostgres(db)) {
    // A SQLite file: concurrent write transactions share one commit (group-commit.ts).
    const group = groupCommitOf(db);
    return group ? group.run(hook, fn) : sqliteWriteTransaction(db, hook, fn);
  }
  return db.connection().execute(async (conn) => {
    let begun = false;
    try {
      await begin(conn, write);
      begun = true;
      return await run(conn, hook, fn);
    } catch (err) {
      if (begun || isPostgres(conn)) await sql`rollback`.execute(conn).catch(() => undefined);
      throw err;
    }
  });
}

/** The work of a begun transaction, then its commit. */
async function run<T>(conn: Tx, hook: CommitHook | undefined, fn: (tx: Tx) => Promise<T>): Promise<T> {
  const result = await fn(conn);
  if (hook) await hook.beforeCommit(conn, result);
  await conn.executeQuery(COMMIT);
  hook?.afterCommit();
  return result;
}

const LOCK_TAKEN = Symbol('the write lock is taken');

/**
 * A SQLite write transaction on the store's only connection (an in-memory database; a file's
 * write transactions go through its group commit instead, on a connection of their own). Its connection has no busy timeout (sqlite-busy.ts): while another
 * process holds the write lock, `BEGIN IMMEDIATE` fails at once with SQLITE_BUSY. The connection
 * (SQLite's only one, shared by every request of the process) is then given back, so that reads go
 * on, and the begin is tried again after a short pause, until `LOCK_WAIT_MS` has passed; then the
 * SQLITE_BUSY error stands (the API answers 503 with Retry-After).
 */
async function sqliteWriteTransaction<T>(
  db: Kysely<DB>,
  hook: CommitHook | undefined,
  fn: (tx: Tx) => Promise<T>,
): Promise<T> {
  const deadline = performance.now() + LOCK_WAIT_MS;
  for (let attempt = 0; ; attempt++) {
    const outcome = await db.connection().execute(async (conn): Promise<T | typeof LOCK_TAKEN> => {
      try {
        await conn.executeQuery(BEGIN_IMMEDIATE);
      } catch (err) {
        if (isSqliteBusy(err) && performance.now() < deadline) return LOCK_TAKEN;
        throw err;
      }
      try {
        return await run(conn, hook, fn);
      } catch (err) {
        await sql`rollback`.execute(conn).catch(() => undefined);
        throw err;
      }
    });
    if (outcome !== LOCK_TAKEN) return outcome;
    await sleep(lockRetryDelay(attempt));
  }
}

/**
 * Runs `fn` in one write transaction that holds berth's write lock from its start (see `begin`),
 * so that operations which race (locks, unique names, moves) are serialised across connections,
 * processes and instances. Commits on success, rolls back on any error. With a scope that carries
 * a commit hook, the hook's work commits (or rolls back) with it.
 */
export function writeTransaction<T>(scope: Kysely<DB> | TransactionScope, fn: (tx: Tx) => Promise<T>): Promise<T> {
  if (scope instanceof Kysely) return inTransaction(scope, undefined, true, fn);
  return inTransaction(scope.db, scope.commitHook, true, fn);
}

/** A read transaction: one consistent snapshot for several queries. */
export function readTransaction<T>(db: Kysely<DB>, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return inTransaction(db, undefined, false, fn);
}
