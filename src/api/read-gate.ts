/**
 * How many GET requests `serve` computes at once; more wait their turn, in arrival order. An
 * answer is built whole in memory (rows, objects, the JSON text) before it is written, so this,
 * times the largest answer the limits allow (docs/api.md, "Limits"), bounds the memory reads may
 * take, however many connections and tokens send them. Reads only: a write may wait on a slow
 * client's body, which must not hold up anyone else's turn. On SQLite the work is one thread's
 * anyway; on PostgreSQL four queries in flight keep a small pool busy.
 */
export const MAX_CONCURRENT_READS = 4;

export class ConcurrencyGate {
  #running = 0;
  readonly #waiting: (() => void)[] = [];

  constructor(private readonly max: number) {}

  /** Runs `work` once fewer than `max` others run. */
  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.#running >= this.max) await new Promise<void>((resolve) => this.#waiting.push(resolve));
    else this.#running++;
    try {
      return await work();
    } finally {
      const next = this.#waiting.shift();
      // The turn passes directly to the next in line: `running` stays as it is.
      if (next) next();
      else this.#running--;
    }
  }

  /** Requests running and waiting (for tests). */
  get load(): { running: number; waiting: number } {
    return { running: this.#running, waiting: this.#waiting.length };
  }
}
