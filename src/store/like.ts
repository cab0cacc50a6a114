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
  return sql<boolean>`lower(${sql.ref(column)}) like ${`%${likeEscape(text.toLowerCase())}%`} escape '\\'`;
}
