import type { Actor } from '../domain/permissions/actor.js';

/**
 * How many GET requests `serve` computes at once; more wait their turn. An answer is built whole
 * in memory (rows, objects, the JSON text) before it is written, so this, times the largest answer
 * the limits allow (docs/api.md, "Limits"), bounds the memory reads may take, however many
 * connections and tokens send them. Reads only: a write may wait on a slow client's body, which
 * must not hold up anyone else's turn. On SQLite the work is one thread's anyway; on PostgreSQL
 * four queries in flight keep a small pool busy.
 */
export const MAX_CONCURRENT_READS = 4;

/**
 * How many of those one subject (a user, an organization's tokens, a client address) may hold:
 * one tenant's expensive pages never take every turn, so another tenant's read finds a free one.
 * On SQLite one: a read runs on the event loop's thread from its start to its end (or to its next
 * turn of the event loop), so a second turn gains its subject nothing and makes everyone else wait
 * for one more answer (the memberships pages of bench/tenant-fairness.mjs, on a server started
 * after the tenant was made: the other tenant's read p50 44-51 ms instead of 63-109 ms; one
 * token's 32 connections of bench/serve-read.mjs are served as fast). On PostgreSQL two: the
 * queries of one subject's requests overlap on the pool.
 */
export function readsPerSubject(store: 'sqlite' | 'postgres'): number {
  return store === 'sqlite' ? 1 : 2;
}

/**
 * The turns of `serve`'s GETs, shared fairly between subjects (issue 32, item 2). At most `max`
 * run at once and at most `perSubject` of one subject; the others wait in a queue per subject, and
 * a freed turn goes to the subjects in rotation (round-robin), so that a subject that queued a
 * hundred requests delays another one's by at most its running ones.
 *
 * Work starts on a later turn of the event loop (`setImmediate`), never inside the callback that
 * read its request nor straight after the previous one's work: on SQLite a read runs to its end
 * without giving the event loop back, so computing at once would read one request, compute it,
 * read the next...: the gate would never see a queue, and a busy tenant's requests, waiting in
 * the sockets, would be served in socket order before a newcomer's connection were even accepted.
 * Deferred, every request that has arrived enters the gate first, and the gate chooses.
 */
export class FairGate {
  #running = 0;
  #waiting = 0;
  /** Per subject: running, and what waits (in arrival order). A subject is here while it has either. */
  readonly #subjects = new Map<string, { running: number; queue: (() => void)[] }>();
  /** Subjects with waiting requests, in the order their turns come round. */
  readonly #rotation: string[] = [];

  constructor(
    private readonly max: number,
    private readonly perSubject: number = max,
    private readonly defer: (resume: () => void) => void = setImmediate,
  ) {}

  /** Runs `work` once fewer than `max` others run and fewer than `perSubject` of `subject`. */
  async run<T>(subject: string, work: () => Promise<T>): Promise<T> {
    let s = this.#subjects.get(subject);
    if (!s) this.#subjects.set(subject, (s = { running: 0, queue: [] }));
    if (this.#running < this.max && s.running < this.perSubject && s.queue.length === 0) {
      this.#running++;
      s.running++;
      await new Promise<void>((resolve) => this.defer(resolve));
    } else {
      if (s.queue.length === 0) this.#rotation.push(subject);
      this.#waiting++;
      // Counted as running by `#next` when it hands over the turn (deferred).
      await new Promise<void>((resolve) => s.queue.push(resolve));
    }
    try {
      return await work();
    } finally {
      this.#running--;
      s.running--;
      if (s.running === 0 && s.queue.length === 0) this.#subjects.delete(subject);
      this.#next();
    }
  }

  /** Hands free turns to the next subjects in rotation that may take one. */
  #next(): void {
    for (let i = 0; i < this.#rotation.length && this.#running < this.max;) {
      const subject = this.#rotation[i];
      const s = this.#subjects.get(subject)!;
      if (s.running >= this.perSubject) {
        i++;
        continue;
      }
      const resume = s.queue.shift()!;
      this.#rotation.splice(i, 1);
      // Still waiting: back at the end of the rotation.
      if (s.queue.length > 0) this.#rotation.push(subject);
      this.#running++;
      this.#waiting--;
      s.running++;
      this.defer(resume);
    }
  }

  /** Requests running and waiting (for tests). */
  get load(): { running: number; waiting: number } {
    return { running: this.#running, waiting: this.#waiting };
  }
}

/** Whose share of the gate a request takes, once its token is known: its user, or its organization. */
export function gateSubject(actor: Actor): string {
  switch (actor.kind) {
    case 'user':
      return `user:${actor.userId}`;
    case 'site-admin':
      return 'site-admin';
    default:
      return `organization:${actor.organizationId}`;
  }
}

/**
 * The subjects of the tokens `serve` has seen accepted (keyed by the token's hash), bounded: the
 * oldest are forgotten first, and learnt again at their token's next request. A token not known
 * yet (its first request, or a made-up one) shares its client address's subject.
 */
export class TokenSubjects {
  readonly #subjects = new Map<string, string>();

  constructor(private readonly maxEntries = 50_000) {}

  get(tokenKey: string): string | undefined {
    return this.#subjects.get(tokenKey);
  }

  set(tokenKey: string, subject: string): void {
    if (this.#subjects.get(tokenKey) === subject) return;
    this.#subjects.delete(tokenKey);
    if (this.#subjects.size >= this.maxEntries) this.#subjects.delete(this.#subjects.keys().next().value!);
    this.#subjects.set(tokenKey, subject);
  }

  delete(tokenKey: string): void {
    this.#subjects.delete(tokenKey);
  }
}
