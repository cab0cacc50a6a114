import { CompiledQuery, Kysely, sql } from 'kysely';
import { groupCommitOf } from './group-commit.js';
import { isPostgres, organizationLockKey, WRITE_LOCK_KEY } from './kind.js';
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
 * Finds, inside a write transaction, the id of the one organization the write is confined to
 * (undefined when there is none, e.g. an unknown name: the write then takes the global lock).
 */
export type OrganizationOf = (tx: Tx) => Promise<string | undefined>;

/**
 * Where a write transaction runs: the database, and the commit hook of the request it serves, if
 * any. A service context is one (the API puts the request's hook in it), so services pass `ctx`.
 */
export interface TransactionScope {
  db: Kysely<DB>;
  commitHook?: CommitHook;
  /**
   * PostgreSQL only: the organization every row this write reads to decide and every row it writes
   * belongs to (services set it with `services/write-scope.ts`). With it, the transaction waits
   * only for writes of that organization (and for writes that span organizations); without it,
   * for every write (see `beginPostgresWrite`). SQLite has one writer whatever this says.
   */
  organization?: OrganizationOf;
}

/**
 * How a transaction starts on each engine.
 * - SQLite: `BEGIN IMMEDIATE` takes the database's write lock at once, for every connection and
 *   process on the file, or waits for it without blocking the event loop (see
 *   `sqliteWriteTransaction`); a read transaction is a plain `BEGIN` (one snapshot).
 * - PostgreSQL: a write transaction first takes transaction-level advisory locks, on every
 *   instance the same keys (`beginPostgresWrite`): writes in one organization take turns across
 *   all instances exactly as on SQLite, and each statement (read committed) sees every write
 *   committed before it. A read transaction is `REPEATABLE READ`: one snapshot for all its queries.
 */
const BEGIN_IMMEDIATE = CompiledQuery.raw('begin immediate');
const BEGIN = CompiledQuery.raw('begin');
const COMMIT = CompiledQuery.raw('commit');
// Two statements in one round trip (no parameters: the driver sends them as one simple query).
const BEGIN_EXCLUSIVE = CompiledQuery.raw(`begin; select pg_advisory_xact_lock(${WRITE_LOCK_KEY})`);
const BEGIN_SHARED = CompiledQuery.raw(`begin; select pg_advisory_xact_lock_shared(${WRITE_LOCK_KEY})`);
const ROLLBACK = CompiledQuery.raw('rollback');

async function begin(conn: Tx, write: boolean, organization: OrganizationOf | undefined): Promise<void> {
  if (!isPostgres(conn)) {
    await conn.executeQuery(write ? BEGIN_IMMEDIATE : BEGIN);
  } else if (write) {
    await beginPostgresWrite(conn, organization);
  } else {
    await sql`begin isolation level repeatable read`.execute(conn);
  }
}

/**
 * The write lock on PostgreSQL, in two levels, so that writes in different organizations never
 * wait for each other while every race inside one organization stays serialised:
 * - a write confined to one organization takes the global key SHARED, then finds its
 *   organization's id (`organization`, inside the transaction) and takes that organization's key
 *   (`organizationLockKey`) EXCLUSIVELY: two writes in one organization take turns, writes in two
 *   organizations run side by side;
 * - every other write (users, tokens, settings, organizations created, renamed or deleted,
 *   anything spanning organizations, and any write that does not name its organization: safe by
 *   default) takes the global key EXCLUSIVELY, so it runs alone, as every write did before.
 * The organization is found while the global key is held shared, so no organization can be
 * created, renamed or deleted between finding it and locking it: a name always leads to the key of
 * the organization that has it for the rest of the transaction, and the key derives from the id,
 * which never changes. Locks are taken in one order (global, then one organization), so two
 * writes cannot deadlock. An organization that is not found (a 404 to come) makes the transaction
 * start again with the exclusive lock: the work then runs as any unscoped write does.
 */
async function beginPostgresWrite(conn: Tx, organization: OrganizationOf | undefined): Promise<void> {
  if (organization) {
    await conn.executeQuery(BEGIN_SHARED);
    const id = await organization(conn);
    if (id !== undefined) {
      await sql`select pg_advisory_xact_lock(${organizationLockKey(id)}::bigint)`.execute(conn);
      return;
    }
    await conn.executeQuery(ROLLBACK);
  }
  await conn.executeQuery(BEGIN_EXCLUSIVE);
}

async function inTransaction<T>(
  db: Kysely<DB>,
  hook: CommitHook | undefined,
  write: boolean,
  fn: (tx: Tx) => Promise<T>,
  organization?: OrganizationOf,
): Promise<T> {
  if (write && !isPostgres(db)) {
    // A SQLite file: concurrent write transactions share one commit (group-commit.ts).
    const group = groupCommitOf(db);
    return group ? group.run(hook, fn) : sqliteWriteTransaction(db, hook, fn);
  }
  return db.connection().execute(async (conn) => {
    let begun = false;
    try {
      await begin(conn, write, organization);
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

/** What runs once the write transaction of a `tx` has committed (`afterCommit`), by transaction. */
const committedWork = new WeakMap<Tx, (() => void)[]>();

/**
 * Runs `fn` once the write transaction `tx` belongs to has committed, and never if it rolls back
 * (e.g. to tell this process's listeners what the transaction did: a run's move, for serve's
 * log). `fn` must not throw; if it does, the error is dropped (the write stands). Only for a `tx`
 * given by `writeTransaction`.
 */
export function afterCommit(tx: Tx, fn: () => void): void {
  const list = committedWork.get(tx);
  if (list) list.push(fn);
  else committedWork.set(tx, [fn]);
}

/**
 * Runs `fn` in one write transaction that holds berth's write lock from its start (see `begin`),
 * so that operations which race (locks, unique names, moves) are serialised across connections,
 * processes and instances (on PostgreSQL, per organization when the scope names one). Commits on
 * success, rolls back on any error. With a scope that carries a commit hook, the hook's work
 * commits (or rolls back) with it. What `fn` left for `afterCommit` runs once the commit is done.
 */
export function writeTransaction<T>(scope: Kysely<DB> | TransactionScope, fn: (tx: Tx) => Promise<T>): Promise<T> {
  // The work `fn` leaves for after the commit is taken when it ends: the transactions of a group
  // commit share one connection, but each runs whole before the next one starts (group-commit.ts).
  let committed: (() => void)[] | undefined;
  const work = async (tx: Tx): Promise<T> => {
    try {
      return await fn(tx);
    } finally {
      committed = committedWork.get(tx);
      if (committed) committedWork.delete(tx);
    }
  };
  const done =
    scope instanceof Kysely
      ? inTransaction(scope, undefined, true, work)
      : inTransaction(scope.db, scope.commitHook, true, work, scope.organization);
  return done.then((result) => {
    if (committed) runCommitted(committed);
    return result;
  });
}

function runCommitted(list: (() => void)[]): void {
  for (const fn of list) {
    try {
      fn();
    } catch {
      // A listener's failure is not the write's: it committed.
    }
  }
}

/** A read transaction: one consistent snapshot for several queries. */
export function readTransaction<T>(db: Kysely<DB>, fn: (tx: Tx) => Promise<T>): Promise<T> {
  return inTransaction(db, undefined, false, fn);
}
