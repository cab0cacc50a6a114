import type { Kysely } from 'kysely';
import type { DB } from '../../store/schema.js';
import { securityGeneration, type Generation } from '../../store/security-generation.js';

/** Entries each cache of a database keeps at most (the oldest are dropped first). */
export const AUTH_CACHE_ENTRIES = 10_000;

interface Entry<V> {
  n: number;
  value: V;
}

/**
 * One database's caches. Every entry carries the generation `n` read BEFORE its value was read,
 * and counts only while the database is still at that generation: a change committed in between
 * makes the entry older than the generation, a miss, never a stale hit. `epoch` and `highest`
 * guard against a history that goes back (a restored backup): a different epoch, or a counter
 * below one already seen, empties the caches.
 */
interface DbCaches {
  epoch: string;
  highest: number;
  maps: Map<string, Map<string, Entry<unknown>>>;
}

const caches = new WeakMap<object, DbCaches>();

function cachesOf(db: Kysely<DB>, gen: Generation): DbCaches {
  let c = caches.get(db);
  if (!c) {
    c = { epoch: gen.epoch, highest: gen.n, maps: new Map() };
    caches.set(db, c);
  } else if (c.epoch !== gen.epoch || gen.n < c.highest) {
    c.maps.clear();
    c.epoch = gen.epoch;
    c.highest = gen.n;
  } else if (gen.n > c.highest) {
    c.highest = gen.n;
  }
  return c;
}

/** Freezes a cached value all the way down: requests share it, none may change it. */
function deepFreeze<V>(value: V): V {
  if (value && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const v of Object.values(value)) deepFreeze(v);
  }
  return value;
}

/**
 * The generation a request authenticated at, by its actor object (`authenticate` hands each
 * request an actor object of its own): the request's later look-ups of access facts use it instead
 * of reading the generation again. A request thus sees the security facts as they were when it
 * was authenticated, which is after every change completed before it arrived; a change made while
 * it runs takes effect from the next request on, as it would if the request had read everything at
 * once. What a look-up loads with such a generation is at least as new as the generation (counters
 * only grow within an epoch), so an entry tagged with it is never older than its tag.
 */
const snapshots = new WeakMap<object, { db: object; gen: Generation }>();

/** Records that `actor` (an object of one request) was authenticated on `db` at `gen`. */
export function rememberSnapshot(actor: object, db: Kysely<DB>, gen: Generation | undefined): void {
  if (gen) snapshots.set(actor, { db, gen });
}

/**
 * The generation to check cached facts against: the request's own (see `snapshots`), else the
 * database's current one; undefined when `db` may not use the caches (a transaction).
 */
export async function generationFor(db: Kysely<DB>, actor?: object): Promise<Generation | undefined> {
  const snapshot = actor && snapshots.get(actor);
  if (snapshot && snapshot.db === db) return snapshot.gen;
  const gen = await securityGeneration(db);
  if (gen) cachesOf(db, gen);
  return gen;
}

/**
 * A cache of security facts (what a token authenticates as, an actor's access facts in an
 * organization) across requests, per database (the store's kysely instance), safe against every
 * change of them, including changes by other processes: see migration 022 and
 * store/security-generation.ts.
 *
 * `gen` comes from `generationFor`, read BEFORE `load` reads the facts. Only a store's own kysely
 * instance uses the cache (`gen` is undefined otherwise): inside a transaction (or on the
 * connection a SQLite group commit runs its transactions on) `load` runs every time, since a
 * transaction may see its own uncommitted changes of security tables, which must never be cached
 * (a rollback would leave an entry for a generation that another transaction may then commit with
 * different facts). Writes therefore load their facts through their transaction, as before.
 */
export async function cachedFacts<V>(
  db: Kysely<DB>,
  gen: Generation | undefined,
  kind: string,
  key: string,
  load: () => Promise<V>,
  /** Whether a loaded value may be kept (e.g. not an unknown token). */
  keep: (value: V) => boolean = () => true,
): Promise<V> {
  const c = gen && caches.get(db);
  // Another history began since `gen` was read (a restore): nothing of either is mixed.
  if (!gen || !c || c.epoch !== gen.epoch) return load();
  let map = c.maps.get(kind);
  if (!map) {
    map = new Map();
    c.maps.set(kind, map);
  }
  const hit = map.get(key);
  if (hit && hit.n === gen.n) return hit.value as V;
  const value = await load();
  if (!keep(value)) return value;
  // The caches may have been emptied while `load` ran (another history): keep the entry only if
  // this generation's epoch is still the current one.
  if (caches.get(db)?.epoch !== gen.epoch) return value;
  if (hit) map.delete(key);
  else if (map.size >= AUTH_CACHE_ENTRIES) map.delete(map.keys().next().value!);
  map.set(key, { n: gen.n, value: deepFreeze(value) });
  return value;
}
