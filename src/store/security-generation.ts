import BetterSqlite, { type Database, type Statement } from 'better-sqlite3';
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { memoQuery } from './memo-query.js';
import type { DB } from './schema.js';

/**
 * The security generation of a database (migration 022): `epoch` is random per database history,
 * `n` moves on with every committed change of a table that feeds authentication or the access
 * facts. Equal generations mean equal security facts.
 */
export interface Generation {
  epoch: string;
  n: number;
}

const counter = memoQuery((db, p: { id: number }) =>
  db.selectFrom('security_generation').select(['epoch', 'n']).where('id', '=', p.id),
);

/** Reads the generation without a query when it can; undefined when the caller must query. */
type FastReader = () => Generation | undefined;

/**
 * The stores' own kysely instances (never a transaction, nor the connection-bound instance a
 * SQLite group commit or a PostgreSQL transaction runs on), each with its fast reader if any.
 */
const roots = new WeakMap<object, FastReader | null>();

/** PostgreSQL: `db` (the store's own kysely instance) may use caches of security facts. */
export function registerPostgresGeneration(db: Kysely<DB>): void {
  roots.set(db, null);
}

/**
 * SQLite: the generation of `db` (the store's own kysely instance, reading on `sqlite`) without a
 * query while no commit happened. `pragma data_version` of a connection changes when ANY other
 * connection commits (another process, or the group commit's writer connection of this one), and
 * `total_changes()` when this connection itself writes (an in-memory store has one connection for
 * everything). While both are as they were at the last read of the counter, no transaction
 * committed anywhere since, so the counter is as it was; otherwise one prepared query reads it.
 * The stamp is taken before the counter is read: a commit in between only makes the next call read
 * again. While a transaction is open on the connection (an in-memory store, whose one connection
 * also writes), its uncommitted writes would be visible here: the caller then reads through kysely,
 * which waits for that transaction's end.
 */
export function registerSqliteGeneration(db: Kysely<DB>, sqlite: Database): void {
  // Two statements: the same through `pragma_data_version()` in one select costs 50% more.
  const dataVersion = sqlite.prepare('pragma data_version').pluck();
  const totalChanges = sqlite.prepare('select total_changes()').pluck();
  let counterStatement: Statement | undefined;
  let version = -1;
  let changes = -1;
  let last: Generation | undefined;
  roots.set(db, () => {
    if (sqlite.inTransaction) return undefined;
    const nowVersion = dataVersion.get() as number;
    const nowChanges = totalChanges.get() as number;
    if (nowVersion === version && nowChanges === changes && last) return last;
    counterStatement ??= sqlite.prepare('select epoch, n from security_generation where id = 1');
    const row = counterStatement.get() as Generation | undefined;
    if (!row) return undefined;
    version = nowVersion;
    changes = nowChanges;
    last = { epoch: row.epoch, n: Number(row.n) };
    return last;
  });
}

/**
 * The committed security generation of `db`, or undefined when `db` is not a store's own kysely
 * instance: a transaction, or a kysely instance bound to a connection that runs one (SQLite's group
 * commit), may see uncommitted changes, which no cache may take for committed ones. PostgreSQL:
 * one small query (it replaces the two to four queries of authentication and access facts that
 * the caches let a request skip).
 */
export async function securityGeneration(db: Kysely<DB>): Promise<Generation | undefined> {
  const fast = roots.get(db);
  if (fast === undefined || db.isTransaction) return undefined;
  const known = fast?.();
  if (known) return known;
  const row = await counter.first(db, { id: 1 });
  return row ? { epoch: row.epoch, n: Number(row.n) } : undefined;
}

/**
 * Gives the SQLite database at `path` a new epoch (after a restore overwrote it in place): a
 * process that has it open then empties its caches of security facts, instead of taking the
 * restored history's generations for those of the history it cached. A database older than
 * migration 022 has no generation yet (its migration will make one).
 */
export function newSecurityEpoch(path: string): void {
  const conn = new BetterSqlite(path, { fileMustExist: true });
  try {
    conn.pragma('busy_timeout = 10000');
    const table = conn.prepare("select 1 from sqlite_master where type = 'table' and name = 'security_generation'");
    if (!table.get()) return;
    conn
      .prepare('update security_generation set epoch = ?, n = n + 1 where id = 1')
      .run(randomBytes(8).toString('hex'));
  } finally {
    conn.close();
  }
}
