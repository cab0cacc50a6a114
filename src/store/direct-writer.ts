import type { Database, Statement } from 'better-sqlite3';
import type { CompiledQuery, Kysely } from 'kysely';
import type { DB } from './schema.js';
import { rowBuilder, type RowBuilder } from './row-builder.js';

/** How many distinct statements stay prepared on the writer connection (oldest dropped first). */
const WRITER_STATEMENTS = 500;

interface Prepared {
  stmt: Statement;
  /** Null for a statement that returns no rows (`run`). */
  width: number;
  build: RowBuilder | null;
}

/** Runs one compiled query on the writer connection and gives its rows (none for a plain write). */
export type WriterRunner = (query: CompiledQuery) => unknown[];

/**
 * The runner of a group commit's writer connection (group-commit.ts): every statement a batch's
 * transactions run through `memoQuery` (services' hot statements, reads and writes) goes straight
 * to better-sqlite3, prepared once and run synchronously, instead of through kysely's driver
 * (its connection mutex, its promises, and better-sqlite3 building each row object by column name).
 *
 * Why it is sound: the writer connection serves only the batch, whose transactions run one after
 * the other, each whole inside its savepoint (group-commit.ts); while a transaction's work runs,
 * nothing else uses the connection, and a synchronous statement cannot interleave with another.
 * The batch holds SQLite's write lock from `BEGIN IMMEDIATE` on, so no statement meets SQLITE_BUSY;
 * any other error (a constraint) is thrown as kysely's driver would throw it, the same SqliteError.
 */
export function writerRunner(sqlite: Database): WriterRunner {
  const prepared = new Map<string, Prepared>();
  const prepare = (sql: string): Prepared => {
    let entry = prepared.get(sql);
    if (entry === undefined) {
      const stmt = sqlite.prepare(sql);
      entry = stmt.reader ? { stmt: stmt.raw(true), ...rowBuilder(stmt) } : { stmt, width: 0, build: null };
      if (prepared.size >= WRITER_STATEMENTS) prepared.delete(prepared.keys().next().value!);
      prepared.set(sql, entry);
    }
    return entry;
  };
  return (query) => {
    const entry = prepare(query.sql);
    if (!entry.build) {
      entry.stmt.run(query.parameters);
      return [];
    }
    const rows = entry.stmt.all(query.parameters) as unknown[][];
    // Another process may have changed the schema since (SQLite then prepares the statement again).
    if (rows.length > 0 && rows[0].length !== entry.width) Object.assign(entry, rowBuilder(entry.stmt));
    const out = new Array<Record<string, unknown>>(rows.length);
    for (let r = 0; r < rows.length; r++) out[r] = entry.build(rows[r]);
    return out;
  };
}

const bound = new WeakMap<object, WriterRunner>();

/** While a batch runs: `conn` (the kysely instance its transactions get) runs statements with `runner`. */
export function bindWriter(conn: Kysely<DB>, runner: WriterRunner): void {
  bound.set(conn, runner);
}

/** When the batch is over: `conn`'s statements go through kysely again. */
export function unbindWriter(conn: Kysely<DB>): void {
  bound.delete(conn);
}

/** The rows of `query` run on the writer connection `db` is bound to (see `writerRunner`), or null when `db` is none. */
export function writerRows<R>(db: Kysely<DB>, query: CompiledQuery): R[] | null {
  const runner = bound.get(db);
  return runner ? (runner(query) as R[]) : null;
}
