import type { Database, Statement } from 'better-sqlite3';
import type { Compilable, CompiledQuery, Kysely } from 'kysely';
import type { DB } from './schema.js';
import { rowBuilder, type RowBuilder } from './row-builder.js';
import { isSqliteBusy } from './sqlite-busy.js';

/** How many distinct statements stay prepared for direct reads (oldest dropped first). */
const DIRECT_STATEMENTS = 500;

interface Prepared {
  stmt: Statement;
  /** The result's width, and a function that makes a row object of a raw row. */
  width: number;
  build: RowBuilder;
}

type Reader = (query: CompiledQuery) => unknown[] | null;

const readers = new WeakMap<object, Reader>();

/**
 * Lets reads on `db` (the store's own kysely instance, never a transaction of it) run straight on
 * SQLite's connection: the statement is prepared once, run in raw mode (rows as arrays) and the
 * rows built here by a function made once per statement (`rowBuilder`). Through kysely, each query
 * waited for the connection's mutex, went through the driver's promises, and better-sqlite3
 * built every row object by looking up each column name again (for the 43 columns of a workspace
 * row, half the time of the query): an uncached workspace GET runs eight queries, a list page
 * reads a hundred workspace rows.
 *
 * Only where it is sound, else `directRows` answers null and the caller goes through kysely:
 * - a read-only statement (a write, even `insert ... returning`, keeps kysely's path and its
 *   busy handling);
 * - no transaction open on the connection: a transaction's statements run on the same
 *   connection, so a read of another request must wait for its end, as kysely's mutex makes it;
 * - SQLite answered SQLITE_BUSY (the kysely path tries again without blocking the event loop).
 * PostgreSQL never registers one.
 */
export function registerDirectReads(db: Kysely<DB>, sqlite: Database): void {
  const prepared = new Map<string, Prepared | null>();
  const prepare = (sql: string): Prepared | null => {
    let entry = prepared.get(sql);
    if (entry === undefined) {
      const stmt = sqlite.prepare(sql);
      entry = stmt.reader && stmt.readonly ? { stmt: stmt.raw(true), ...rowBuilder(stmt) } : null;
      if (prepared.size >= DIRECT_STATEMENTS) prepared.delete(prepared.keys().next().value!);
      prepared.set(sql, entry);
    }
    return entry;
  };
  readers.set(db, (query) => {
    if (sqlite.inTransaction) return null;
    const entry = prepare(query.sql);
    if (!entry) return null;
    let rows: unknown[][];
    try {
      rows = entry.stmt.all(query.parameters) as unknown[][];
    } catch (err) {
      if (isSqliteBusy(err)) return null;
      throw err;
    }
    // Another process may have changed the schema since (SQLite then prepares the statement again).
    if (rows.length > 0 && rows[0].length !== entry.width) Object.assign(entry, rowBuilder(entry.stmt));
    const out = new Array<Record<string, unknown>>(rows.length);
    for (let r = 0; r < rows.length; r++) out[r] = entry.build(rows[r]);
    return out;
  });
}

/** The rows of `query` read directly (see `registerDirectReads`), or null when kysely must run it. */
export function directRows<R>(db: Kysely<DB>, query: CompiledQuery): R[] | null {
  const reader = readers.get(db);
  return reader ? (reader(query) as R[] | null) : null;
}

/** Every row of a select: directly where possible, else through kysely. */
export async function readRows<R>(db: Kysely<DB>, query: Compilable<R>): Promise<R[]> {
  const compiled = query.compile();
  return directRows<R>(db, compiled) ?? (await db.executeQuery<R>(compiled)).rows;
}
