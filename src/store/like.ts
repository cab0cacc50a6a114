import { sql, type RawBuilder } from 'kysely';

/** Escapes `%`, `_` and `\` so that user text matches literally inside a LIKE pattern. */
export function likeEscape(text: string): string {
  return text.replace(/[\\%_]/g, '\\$&');
}

/**
 * `lower(column) LIKE %text%` with an explicit escape character: a case-insensitive substring
 * match that works the same on SQLite and PostgreSQL.
 */
export function containsInsensitive(column: string, text: string): RawBuilder<boolean> {
  return containsInsensitiveOf(sql.ref(column), text);
}

/** `containsInsensitive` of an expression rather than a column. */
export function containsInsensitiveOf(expression: RawBuilder<unknown>, text: string): RawBuilder<boolean> {
  return sql<boolean>`lower(${expression}) like ${`%${likeEscape(text.toLowerCase())}%`} escape '\\'`;
}
