import type { CompiledQuery, Compilable, DialectAdapter, Kysely } from 'kysely';
import type { DB } from './schema.js';
import { directRows, readRows } from './direct-reads.js';
import { writerRows } from './direct-writer.js';

/** Stands for the parameter `name` while a memoized query is built (see `memoQuery`). */
class Slot {
  constructor(readonly name: string) {}
}

interface Template {
  compiled: CompiledQuery;
  names: string[];
}

/** A query built and compiled once per database engine, run with new parameters each time. */
export interface MemoQuery<P extends Record<string, unknown>, R> {
  /** Every row. */
  execute(db: Kysely<DB>, params: P): Promise<R[]>;
  /** The first row, if any. */
  first(db: Kysely<DB>, params: P): Promise<R | undefined>;
}

/**
 * A query of a hot path (every write request runs a dozen), without kysely's cost of building and
 * compiling it again each time, which is most of the time it takes on SQLite. `build` is called
 * once per engine (SQLite and PostgreSQL compile differently) with a placeholder for each
 * parameter; the SQL it compiles to is kept, and each run puts the actual values in the
 * placeholders' places. `build` must therefore give the same shape whatever the values:
 * - it may only pass parameters as values (no `.toLowerCase()` on them, no branches on them, no
 *   arrays of varying length);
 * - a parameter compared in a `where` must never be null (kysely writes `is null` for a literal
 *   null, but a placeholder compiles to `= ?`).
 * A run whose parameters differ from the first run's names, or hold `undefined` (which kysely
 * leaves out of inserts and updates), is built and compiled as usual.
 *
 * Both rules are checked while the tests run (`BERTH_CHECK_MEMO_QUERIES=1`, set by the vitest
 * configs for the suite and every process it starts): each run is also built the usual way, and a
 * run whose SQL or parameters differ from the memoized ones throws `MemoQueryRuleError`.
 */
export function memoQuery<P extends Record<string, unknown>, R>(
  build: (db: Kysely<DB>, params: P) => Compilable<R>,
): MemoQuery<P, R> {
  const templates = new WeakMap<DialectAdapter, Template>();
  const checked = CHECK_RULES;

  const templateOf = (db: Kysely<DB>, params: P): Template => {
    const adapter = db.getExecutor().adapter;
    let t = templates.get(adapter);
    if (!t) {
      const names = Object.keys(params);
      const slots = Object.fromEntries(names.map((n) => [n, new Slot(n)])) as unknown as P;
      t = { compiled: build(db, slots).compile(), names };
      templates.set(adapter, t);
    }
    return t;
  };

  const compiledFor = (db: Kysely<DB>, params: P): CompiledQuery => {
    const t = templateOf(db, params);
    let count = 0;
    for (const name in params) {
      if (params[name] === undefined) return build(db, params).compile();
      count++;
    }
    if (count !== t.names.length || !t.names.every((n) => n in params)) return build(db, params).compile();
    const parameters = t.compiled.parameters.map((v) => (v instanceof Slot ? params[v.name] : v));
    const memoized = { ...t.compiled, parameters };
    if (checked) checkRules(memoized, build(db, params).compile());
    return memoized;
  };

  return {
    execute(db, params) {
      return rowsOf<R>(db, compiledFor(db, params));
    },
    async first(db, params) {
      return (await rowsOf<R>(db, compiledFor(db, params)))[0];
    },
  };
}

/**
 * The rows of a memoized query: read straight on SQLite's main connection outside transactions
 * (direct-reads.ts), run straight on the writer connection inside a group commit's batch
 * (direct-writer.ts), else through kysely.
 */
async function rowsOf<R>(db: Kysely<DB>, compiled: CompiledQuery): Promise<R[]> {
  return directRows<R>(db, compiled) ?? writerRows<R>(db, compiled) ?? (await db.executeQuery<R>(compiled)).rows;
}

/** Whether every memoized run is compared with the usual build (tests set it; see `memoQuery`). */
const CHECK_RULES = process.env.BERTH_CHECK_MEMO_QUERIES === '1';

/** A memoized query whose shape depends on its values, or that compares a null (see `memoQuery`). */
export class MemoQueryRuleError extends Error {
  override name = 'MemoQueryRuleError';
}

function checkRules(memoized: CompiledQuery, usual: CompiledQuery): void {
  const same =
    memoized.sql === usual.sql &&
    memoized.parameters.length === usual.parameters.length &&
    memoized.parameters.every((v, i) => Object.is(v, usual.parameters[i]));
  if (same) return;
  throw new MemoQueryRuleError(
    `a memoized query differs from its usual build: its shape depends on the values, or it compares a null ` +
      `(store/memo-query.ts)\n  memoized: ${memoized.sql}\n  usual:    ${usual.sql}`,
  );
}

/** How many list lengths `queryByIds` keeps a memoized query for (pages are of 1 to 100). */
const MEMOIZED_LENGTHS = 128;

/**
 * `select(db, ids)` for any number of ids, memoized (see `memoQuery`) per number of ids: a single
 * workspace's tags or metrics, and a page's hundred (a page of 100 made `select` build and compile
 * an `in` list of 100 placeholders each time, a tenth of the page's time). `select` gets the ids
 * as one array, so each length is its own shape; past MEMOIZED_LENGTHS lengths it is built as
 * usual.
 */
export function queryByIds<R, K extends string | number = string>(
  select: (db: Kysely<DB>, ids: K[]) => Compilable<R>,
): (db: Kysely<DB>, ids: K[]) => Promise<R[]> {
  const byLength = new Map<number, MemoQuery<Record<string, K>, R>>();
  return async (db, ids) => {
    let memo = byLength.get(ids.length);
    if (!memo) {
      if (ids.length === 0 || byLength.size >= MEMOIZED_LENGTHS) return readRows(db, select(db, ids));
      memo = memoQuery((db, p: Record<string, K>) => select(db, Object.values(p)));
      byLength.set(ids.length, memo);
    }
    const params: Record<string, K> = {};
    for (let i = 0; i < ids.length; i++) params[`id${i}`] = ids[i];
    return memo.execute(db, params);
  };
}
