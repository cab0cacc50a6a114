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

/**
 * Up to this many rows, a trigram's rows are counted (and such rare ones are preferred); beyond,
 * their number is estimated.
 */
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

/**
 * Measurements of trigrams (`reach`) and of the rowid span (`seqSpan`), kept for a while per
 * database: a name search measures up to sixteen trigrams, at about 65 us each, and under
 * traffic the same trigrams come back in search after search (`ws-`, `-00`...). A measurement
 * only chooses which trigrams narrow the search (every choice gives a superset of the matches
 * that the LIKE then filters), never an answer, so one up to MEASURE_TTL_MS old is as sound as a
 * fresh one; it may only make a plan slower while the names change fast.
 */
const MEASURE_TTL_MS = 10_000;
const MEASURES_KEPT = 5_000;
type Measures = Map<string, { at: number; value: unknown }>;
const measures = new WeakMap<object, Measures>();

async function remembered<T, V>(db: Kysely<T>, key: string, measure: () => Promise<V>): Promise<V> {
  let kept = measures.get(db);
  if (!kept) measures.set(db, (kept = new Map() as Measures));
  const now = performance.now();
  const hit = kept.get(key);
  if (hit && now - hit.at < MEASURE_TTL_MS) return hit.value as V;
  const value = await measure();
  kept.delete(key);
  if (kept.size >= MEASURES_KEPT) kept.delete(kept.keys().next().value!);
  kept.set(key, { at: now, value });
  return value;
}

/** How many of the first `limit` rows holding `gram` from one end, and the last rowid they reach. */
function reach<T>(
  db: Kysely<T>,
  gram: string,
  limit: number,
  dir: 'asc' | 'desc',
): Promise<{ n: number; reach: number | null }> {
  return remembered(db, `${dir} ${limit} ${gram}`, () => measureReach(db, gram, limit, dir));
}

async function measureReach<T>(
  db: Kysely<T>,
  gram: string,
  limit: number,
  dir: 'asc' | 'desc',
): Promise<{ n: number; reach: number | null }> {
  const last = dir === 'asc' ? sql`max(rowid)` : sql`min(rowid)`;
  const { rows } = await sql<{ n: number; reach: number | null }>`select count(*) as n, ${last} as reach
    from (select rowid from ${sql.table(NAME_TRIGRAMS)} where ${sql.table(NAME_TRIGRAMS)} match ${trigramMatch([gram])}
    order by rowid ${sql.raw(dir)} limit ${limit})`.execute(db);
  return { n: Number(rows[0].n), reach: rows[0].reach === null ? null : Number(rows[0].reach) };
}

/** The first and last `seq` of the workspaces (the rowids of the trigram index). */
interface Span {
  first: number;
  last: number;
}

function seqSpan<T>(db: Kysely<T>): Promise<Span> {
  return remembered(db, 'span', () => measureSpan(db));
}

async function measureSpan<T>(db: Kysely<T>): Promise<Span> {
  const { rows } = await sql<{ first: number | null; last: number | null }>`select
    (select min(seq) from workspaces) as first, (select max(seq) from workspaces) as last`.execute(db);
  return { first: Number(rows[0].first ?? 0), last: Number(rows[0].last ?? 0) };
}

/**
 * The FTS5 query that narrows a name search for `literal` on this database, or null when
 * narrowing does not pay (fewer than three characters, or no trigram held by at most
 * MAX_CANDIDATES rows) or the engine is PostgreSQL (its planner uses its trigram index itself).
 *
 * Not every trigram goes into the query: FTS5 walks the whole list of a common trigram to AND it
 * (`svc` is in every name of the benchmark), which costs more than checking the few more
 * candidates that leaving it out lets through. So the rarest ones are used: up to SAMPLED
 * trigrams spread over the literal are measured, and the rarest (at most USED) bound the
 * candidates by their own count: those held by at most RARE rows if any, else those held by at
 * most MAX_CANDIDATES. A trigram's rows are counted up to a limit (RARE / 10, then RARE);
 * beyond, their number is estimated from how far into the rowids those reach (FTS5 gives a trigram's rows in rowid order,
 * either way, and stops after a limit), so that a common trigram costs no more to measure than a
 * rare one. (Before the estimate, each was counted up to MAX_CANDIDATES: for `*-prod-*` at
 * 100,000 workspaces, four trigrams of 33,000 rows each, that took 2.4 ms, to learn that none
 * narrows.)
 */
export async function narrowingQuery<T>(db: Kysely<T>, literal: string): Promise<string | null> {
  if (isPostgres(db)) return null;
  const grams = usableTrigrams(literal);
  if (grams.length === 0) return null;
  const sample =
    grams.length <= SAMPLED
      ? grams
      : Array.from({ length: SAMPLED }, (_, i) => grams[Math.round((i * (grams.length - 1)) / (SAMPLED - 1))]);
  const span = await seqSpan(db);
  const rows = span.last - span.first + 1;
  // Counted up to `limit` rows; beyond, estimated from how far into the rowids the first
  // `limit + 1` of them reach, at that density over all the rowids.
  const measure = async (gram: string, limit: number) => {
    const head = await reach(db, gram, limit + 1, 'asc');
    const exact = head.n <= limit || head.reach === null;
    const n = exact ? head.n : Math.round(((limit + 1) * rows) / Math.max(1, head.reach! - span.first + 1));
    return { gram, n, exact };
  };
  const measured: { gram: string; n: number; exact: boolean }[] = [];
  for (const gram of sample) {
    // A first look at RARE / 10 rows settles the very rare and the very common (an estimate
    // from 100 rows is off by about a tenth, far less than the margin of two), and once a trigram
    // is known to be that rare, the others need no closer look (they would narrow no further).
    const first = await measure(gram, RARE / 10);
    const veryRare = measured.some((m) => m.exact && m.n <= RARE / 10);
    measured.push(first.exact || veryRare || first.n > 2 * MAX_CANDIDATES ? first : await measure(gram, RARE));
  }
  const rarest = (list: typeof measured) =>
    list
      .sort((a, b) => a.n - b.n)
      .slice(0, USED)
      .map((m) => m.gram);
  const rare = measured.filter((m) => m.exact && m.n <= RARE);
  if (rare.length > 0) return trigramMatch(rarest(rare));
  // None rare: the estimates that would narrow are checked from the other end too, the larger
  // taken, so that a trigram rare among old names but common among new ones is not taken for
  // rare. (An estimate only decides whether narrowing pays, never an answer.)
  const narrowing: typeof measured = [];
  for (const m of measured.filter((m) => m.n <= MAX_CANDIDATES)) {
    const tail = await reach(db, m.gram, RARE + 1, 'desc');
    const fromTail = Math.round(((RARE + 1) * rows) / Math.max(1, span.last - (tail.reach ?? span.first) + 1));
    if (fromTail <= MAX_CANDIDATES) narrowing.push({ ...m, n: Math.max(m.n, fromTail) });
  }
  const chosen = rarest(narrowing);
  return chosen.length === 0 ? null : trigramMatch(chosen);
}

/**
 * The `seq` of every workspace whose `name_lower` holds what `match` (from `narrowingQuery`)
 * asks for (SQLite; a superset of the names holding the literal), for `workspaces.seq IN (...)`.
 */
export function trigramCandidates(match: string): RawBuilder<number> {
  return sql<number>`(select rowid from ${sql.table(NAME_TRIGRAMS)} where ${sql.table(NAME_TRIGRAMS)} match ${match})`;
}
