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
 *   so the service asks first whether narrowing pays and with which trigrams
 *   (`narrowingQuery`) and adds the narrowing itself (`trigramCandidates`).
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

/** A trigram this rare is used at once, without measuring the others further. */
const RARE = 1_000;

/** Trigrams measured at most per literal (spread over it), and used at most in one query. */
const SAMPLED = 8;
const USED = 3;

/** The distinct trigrams (three code points) of `literal`, or none if it has fewer than three. */
export function trigramsOf(literal: string): string[] {
  const points = [...literal];
  const out = new Set<string>();
  for (let i = 0; i + 3 <= points.length; i++) out.add(points.slice(i, i + 3).join(''));
  return [...out];
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * The trigrams of `literal` the index can be asked for, or none when it cannot help: fewer than
 * three characters (a trigram index knows nothing of shorter strings), or characters that text
 * binding would not carry unchanged (NUL, lone surrogates), for which the plain scan answers.
 */
function usableTrigrams(literal: string): string[] {
  if (literal.includes('\u0000') || LONE_SURROGATE.test(literal)) return [];
  return trigramsOf(literal);
}

/** The FTS5 query for the rows holding every one of `grams` (each a quoted string, `"` doubled). */
export function trigramMatch(grams: string[]): string {
  return grams.map((g) => `"${g.replaceAll('"', '""')}"`).join(' AND ');
}

/** The FTS5 query for the rows holding every trigram of `literal`, or null if it has none usable. */
export function trigramQuery(literal: string): string | null {
  const grams = usableTrigrams(literal);
  return grams.length === 0 ? null : trigramMatch(grams);
}

/** How many rows hold `gram`, counted up to `limit` (so a common trigram costs no more). */
async function rowsHolding<T>(db: Kysely<T>, gram: string, limit: number): Promise<number> {
  const { rows } = await sql<{ n: number }>`select count(*) as n from (select rowid from ${sql.table(NAME_TRIGRAMS)}
    where ${sql.table(NAME_TRIGRAMS)} match ${trigramMatch([gram])} limit ${limit})`.execute(db);
  return Number(rows[0].n);
}

/**
 * The FTS5 query that narrows a name search for `literal` on this database, or null when
 * narrowing does not pay (fewer than three characters, or no trigram held by at most
 * MAX_CANDIDATES rows) or the engine is PostgreSQL (its planner uses its trigram index itself).
 *
 * Not every trigram goes into the query: FTS5 walks the whole list of a common trigram to AND it
 * (`svc` is in every name of the benchmark), which costs more than checking the few more
 * candidates that leaving it out lets through. So the rarest ones are used: up to SAMPLED
 * trigrams spread over the literal are counted, first up to RARE rows each (cheap whatever they
 * are), and only if none is that rare, up to MAX_CANDIDATES. The rarest (at most USED) bound the
 * candidates by their own count.
 */
export async function narrowingQuery<T>(db: Kysely<T>, literal: string): Promise<string | null> {
  if (isPostgres(db)) return null;
  const grams = usableTrigrams(literal);
  if (grams.length === 0) return null;
  const sample =
    grams.length <= SAMPLED
      ? grams
      : Array.from({ length: SAMPLED }, (_, i) => grams[Math.round((i * (grams.length - 1)) / (SAMPLED - 1))]);
  const rarest = async (limit: number) => {
    const counted: [string, number][] = [];
    for (const gram of sample) counted.push([gram, await rowsHolding(db, gram, limit + 1)]);
    return counted
      .filter(([, n]) => n <= limit)
      .sort((a, b) => a[1] - b[1])
      .slice(0, USED)
      .map(([gram]) => gram);
  };
  let chosen = await rarest(RARE);
  if (chosen.length === 0) chosen = await rarest(MAX_CANDIDATES);
  return chosen.length === 0 ? null : trigramMatch(chosen);
}

/**
 * The `seq` of every workspace whose `name_lower` holds what `match` (from `narrowingQuery`)
 * asks for (SQLite; a superset of the names holding the literal), for `workspaces.seq IN (...)`.
 */
export function trigramCandidates(match: string): RawBuilder<number> {
  return sql<number>`(select rowid from ${sql.table(NAME_TRIGRAMS)} where ${sql.table(NAME_TRIGRAMS)} match ${match})`;
}
