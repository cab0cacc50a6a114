import type { Database, Statement } from 'better-sqlite3';
import type { SqliteDatabase } from 'kysely';

/** How many distinct statements stay prepared (least recently used ones are dropped first). */
export const STATEMENT_CACHE_SIZE = 500;

/**
 * The database as kysely's SQLite dialect sees it, with a cache of prepared statements by SQL
 * text. Kysely prepares every query it runs; preparing costs more than running most of berth's
 * queries (a request makes several), and the same few SQL texts come back on every request.
 * A better-sqlite3 statement is reusable once `all`/`run` returned, which is how kysely uses it.
 */
export function cachingDatabase(sqlite: Database, size = STATEMENT_CACHE_SIZE): SqliteDatabase {
  const cache = new Map<string, Statement>();
  return {
    prepare(sql: string) {
      let stmt = cache.get(sql);
      if (stmt) {
        // Most recently used last.
        cache.delete(sql);
      } else {
        stmt = sqlite.prepare(sql);
        if (cache.size >= size) cache.delete(cache.keys().next().value!);
      }
      cache.set(sql, stmt);
      return stmt;
    },
    close() {
      cache.clear();
      sqlite.close();
    },
  };
}
