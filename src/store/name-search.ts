import { sql, type Kysely, type RawBuilder } from 'kysely';
import { isPostgres } from './kind.js';

/*
 * The substring index of workspace names (migration 019), as the services use it.
 *
 * A name search stays what it always was, `name_lower LIKE pattern` (like.ts): the index only
 * narrows the rows that condition is tried on, so it can never change an answer.
 * - SQLite: an FTS5 table of trigrams of `name_lower` (kept in step by triggers on `workspaces`).
 *   A name that holds a literal holds each of the literal's trigrams, so the workspaces whose
 *   names hold them all are a superset of the matches. SQLite's planner cannot see inside FTS5,
 *   so the service asks first whether narrowing pays (`narrowingPays`) and adds the narrowing
 *   itself (`trigramCandidates`).
 * - PostgreSQL: a GIN index with pg_trgm's operator class on `name_lower`; the planner uses it
 *   for the LIKE by itself, from its statistics, so nothing is added to the query.
 */

/** The FTS5 table of migration 019 (SQLite only). */
export const NAME_TRIGRAMS = 'workspace_name_trigrams';

/**
 * Above this many candidate workspaces (over every organization), narrowing by trigrams costs
 * more than it saves: each candidate is looked up in `workspaces` (about 0.5 us), where a scan of
 * the organization's names costs about 0.12 us a workspace and a page in order stops early.
 * Measured with bench/list-scale.mjs at 100,000 workspaces: a literal with 55,000 candidates
 * counted in 34 ms through the index against 12 ms by the scan; one with 505 in 2.5 ms against 12.
 */
export const MAX_CANDIDATES = 10_000;

/** The distinct trigrams (three code points) of `literal`, or none if it has fewer than three. */
export function trigramsOf(literal: string): string[] {
  const points = [...literal];
  const out = new Set<string>();
  for (let i = 0; i + 3 <= points.length; i++) out.add(points.slice(i, i + 3).join(''));
  return [...out];
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The FTS5 query for the rows holding every trigram of `literal` (each a quoted string, `"`
 * doubled), or null when the index cannot help: fewer than three characters (a trigram index
 * knows nothing of shorter strings), or characters that text binding would not carry unchanged
 * (NUL, lone surrogates), for which the plain scan answers as before.
 */
export function trigramQuery(literal: string): string | null {
  if (literal.includes('\u0000') || LONE_SURROGATE.test(literal)) return null;
  const grams = trigramsOf(literal);
  if (grams.length === 0) return null;
  return grams.map((g) => `"${g.replaceAll('"', '""')}"`).join(' AND ');
}

/**
 * Whether narrowing a name search by the trigrams of `literal` pays on this database: SQLite,
 * at least three characters, at most MAX_CANDIDATES candidates (counted with a limit, so a
 * common literal costs no more than that many rows of the index). Always false on PostgreSQL,
 * whose planner chooses its trigram index itself.
 */
export async function narrowingPays<T>(db: Kysely<T>, literal: string): Promise<boolean> {
  if (isPostgres(db)) return false;
  const query = trigramQuery(literal);
  if (query === null) return false;
  const { rows } = await sql<{ n: number }>`select count(*) as n from (select rowid from ${sql.table(NAME_TRIGRAMS)}
    where ${sql.table(NAME_TRIGRAMS)} match ${query} limit ${MAX_CANDIDATES + 1})`.execute(db);
  return Number(rows[0].n) <= MAX_CANDIDATES;
}

/**
 * The `seq` of every workspace whose `name_lower` holds each trigram of `literal` (SQLite; a
 * superset of the names holding `literal`), for `workspaces.seq IN (...)`. Only for a literal
 * that `narrowingPays` accepted.
 */
export function trigramCandidates(literal: string): RawBuilder<number> {
  const query = trigramQuery(literal);
  if (query === null) throw new Error(`no trigram query for ${JSON.stringify(literal)}`);
  return sql<number>`(select rowid from ${sql.table(NAME_TRIGRAMS)} where ${sql.table(NAME_TRIGRAMS)} match ${query})`;
}
