import type { Statement } from 'better-sqlite3';

/** Makes a row object of a raw row (an array of a statement's column values). */
export type RowBuilder = (row: unknown[]) => Record<string, unknown>;

/**
 * A function that turns a raw row of `stmt` into an object with its column names, as one object
 * literal (`{"id": r[0], "name": r[1], ...}`): every row gets the same shape at once, several times
 * faster than assigning the names one by one in a loop shared by every statement. The names come
 * from SQLite (berth's own columns and aliases) and are written as JSON strings. A later duplicate
 * name wins, as in better-sqlite3's row objects. Used by the statements run straight on SQLite
 * (direct-reads.ts, direct-writer.ts).
 */
export function rowBuilder(stmt: Statement): { width: number; build: RowBuilder } {
  const names = stmt.columns().map((c) => c.name);
  const fields = names.map((name, i) => `${JSON.stringify(name)}: r[${i}]`).join(', ');
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- built from SQLite's column names, see above
  return { width: names.length, build: new Function('r', `return { ${fields} };`) as RowBuilder };
}
