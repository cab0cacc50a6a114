import { hash } from 'node:crypto';

/**
 * A cache of `serve`'s successful GET answers, for the read-heavy traffic of API clients that
 * poll (go-tfe, the Terraform provider, dashboards).
 *
 * An answer is reused only while the database is provably unchanged since it was computed: the
 * store's change stamp (on SQLite, `data_version`, which moves when any other connection or
 * process commits, plus this connection's `total_changes()`; on PostgreSQL, the server's current
 * snapshot, which moves when any transaction that writes starts or ends, on any instance) must be
 * the one taken before the answer was computed, so any write anywhere (a lock, a revoked token, a permission change) empties it in
 * effect. Answers are also at most `maxAgeMs` old, which bounds anything that depends on the
 * clock. Keys are the SHA-256 of the Authorization header and the request target: the same URL
 * with another token is another entry, so permissions are never shared.
 */
export interface CachedAnswer {
  stamp: string;
  storedAt: number;
  /** When the request's token expires (`wallClock` milliseconds), or null: never served from then on. */
  expiresAt: number | null;
  headers: Record<string, string>;
  body: string;
  /** `headers` and the body's content-length as one flat name, value, name, value... list, built once. */
  headerList: string[];
}

export interface ReadCacheOptions {
  maxEntries: number;
  maxAgeMs: number;
  /** Larger answers (big lists, state downloads) are not kept. */
  maxBodyBytes: number;
  /**
   * The bodies kept, all together, in characters (a JavaScript string holds one or two bytes a
   * character): older answers make room. Without it, 1000 answers of 256 KiB would be 256 MiB.
   */
  maxTotalChars: number;
  now?: () => number;
  /** The time tokens expire by, in milliseconds since the epoch (serve's clock; tests fix it). */
  wallClock?: () => number;
}

export const DEFAULT_READ_CACHE: ReadCacheOptions = {
  maxEntries: 1000,
  maxAgeMs: 1000,
  maxBodyBytes: 256 * 1024,
  maxTotalChars: 16 * 1024 * 1024,
};

/** What the cache did since the server started (`berth serve` writes them at shutdown on request). */
export interface ReadCacheCounters {
  /** GET requests looked up. */
  lookups: number;
  /** Lookups answered from the cache. */
  hits: number;
  /** Answers kept after a miss. */
  stored: number;
}

/** Answers kept, lately: the count and the hits are halved each time it reaches this. */
const STORE_WINDOW = 256;
/** Keeping pays while at least one kept answer in this many is asked for again (a hit). */
const USEFUL_RATIO = 16;
/** While keeping does not pay, one miss in this many is kept still. */
const SAMPLE = 16;

export class ReadCache {
  readonly #entries = new Map<string, CachedAnswer>();
  readonly #now: () => number;
  readonly #wallClock: () => number;
  #totalChars = 0;
  readonly counters: ReadCacheCounters = { lookups: 0, hits: 0, stored: 0 };
  /** Answers kept and hits, over about the last STORE_WINDOW answers kept (see `wantsAnswer`). */
  #recentStores = 0;
  /** Starts as if keeping paid: a new cache keeps every answer until a few hundred went unasked. */
  #recentHits = STORE_WINDOW / USEFUL_RATIO;
  #skipped = 0;

  constructor(
    private readonly stamp: () => string | Promise<string>,
    private readonly options: ReadCacheOptions = DEFAULT_READ_CACHE,
  ) {
    this.#now = options.now ?? (() => performance.now());
    this.#wallClock = options.wallClock ?? (() => Date.now());
  }

  static key(authorization: string | undefined, target: string): string {
    // One-shot hashing: no Hash object per request.
    return hash('sha256', `${authorization ?? ''}\n${target}`, 'base64');
  }

  /** The database's stamp now: to look up answers with, and to remember before computing one. */
  currentStamp(): string | Promise<string> {
    return this.stamp();
  }

  /**
   * The answer kept for `key` if it was computed at `stamp` (the current one), is young enough,
   * and its token has not expired since (from that very moment, its requests are 401s).
   */
  get(key: string, stamp: string): CachedAnswer | null {
    this.counters.lookups++;
    const hit = this.#entries.get(key);
    if (!hit) return null;
    if (
      hit.stamp !== stamp ||
      this.#now() - hit.storedAt > this.options.maxAgeMs ||
      (hit.expiresAt !== null && this.#wallClock() >= hit.expiresAt)
    ) {
      this.#drop(key);
      return null;
    }
    this.counters.hits++;
    this.#recentHits = Math.min(this.#recentHits + 1, STORE_WINDOW);
    return hit;
  }

  /**
   * Whether the answer about to be computed for a miss should be kept (asked before computing it,
   * since its stamp must be taken first). Under traffic that writes about as often as it reads,
   * the database moves on before almost any kept answer is asked for again: keeping answers then
   * costs (a second hash and stamp, the headers copied, the body measured, bodies kept that the
   * garbage collector must sweep: in bench/mixed.mjs, 2% hits for 4-6% of the server's throughput)
   * and answers nothing. So while fewer than one in USEFUL_RATIO answers kept lately was asked for
   * again, only one miss in SAMPLE is kept: enough to notice when the traffic turns to reads.
   */
  wantsAnswer(): boolean {
    if (this.#recentHits * USEFUL_RATIO >= this.#recentStores) return true;
    return ++this.#skipped % SAMPLE === 0;
  }

  /**
   * Keeps an answer computed while the database was at `stamp` (taken before computing it), for a
   * token that expires at `expiresAt` (`wallClock` milliseconds; null: never).
   */
  set(
    key: string,
    stamp: string,
    headers: Record<string, string>,
    body: string,
    expiresAt: number | null = null,
  ): void {
    if (body.length > this.options.maxBodyBytes) return;
    this.#drop(key);
    while (
      this.#entries.size > 0 &&
      (this.#entries.size >= this.options.maxEntries || this.#totalChars + body.length > this.options.maxTotalChars)
    )
      this.#drop(this.#entries.keys().next().value!);
    const headerList = [...Object.entries(headers).flat(), 'content-length', String(Buffer.byteLength(body))];
    this.#entries.set(key, { stamp, storedAt: this.#now(), expiresAt, headers, body, headerList });
    this.#totalChars += body.length;
    this.counters.stored++;
    if (++this.#recentStores >= STORE_WINDOW) {
      this.#recentStores /= 2;
      this.#recentHits /= 2;
    }
  }

  #drop(key: string): void {
    const entry = this.#entries.get(key);
    if (!entry) return;
    this.#entries.delete(key);
    this.#totalChars -= entry.body.length;
  }

  /** The characters of the bodies kept. */
  get totalChars(): number {
    return this.#totalChars;
  }

  get size(): number {
    return this.#entries.size;
  }
}
