import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

/** How often the server looks for a quiet moment. */
const TICK_MS = 500;
/** Heap grown since the last collection (committed bytes) that is worth giving back. */
const WORTH_COLLECTING = 16 * 1024 * 1024;

/**
 * A full garbage collection when `serve` falls quiet after a busy spell, to give the memory that
 * spell left behind back to the system.
 *
 * Why: under load V8 grows its heap (new space to its largest size, old space by a factor of what
 * survived) to collect less often, and keeps it: after a load the process held ~240 MB resident
 * where the live data needs ~150 MB (the same run under `--max-old-space-size=100` ends at 151 MB),
 * and nothing collects it while no request allocates. Capping the heap instead would make large
 * answers (docs/api.md, "Limits") fail or thrash, and a flag on the command line does not reach a
 * user who runs the installed `berth` bin. A collection while nothing is asked costs no request
 * any time; a request that arrives during one waits for it (tens of milliseconds, rarely).
 *
 * When: a watch starts with a request and looks every TICK_MS; at the first look that finds no
 * request since the one before, it ends, with a collection if the committed heap grew by
 * WORTH_COLLECTING since the last one. A lone poll now and then never qualifies; a burst is
 * followed by one collection, within a second of its end. In a measured run (bench/memory.mjs)
 * it took the resident memory after the write load from 183 MB to 150 MB within that second; the
 * live heap was 16 MB of 99 MB committed.
 *
 * How: V8 offers a forced collection only to code that has `gc`; the flag that exposes it is
 * set at run time and the function taken from a fresh context (the main context was made before
 * the flag). Without it (an embedder that refuses the flag) this does nothing.
 */
export class IdleCollector {
  #requests = 0;
  #seen = 0;
  #baseline = getHeapStatistics().total_heap_size;
  #timer: NodeJS.Timeout | null = null;
  #stopped = false;
  readonly #gc: (() => void) | null;

  constructor(gc: (() => void) | null = exposedGc()) {
    this.#gc = gc;
  }

  /** Called for every request: the first after a quiet spell starts the watch. */
  request(): void {
    this.#requests++;
    if (this.#timer || !this.#gc || this.#stopped) return;
    this.#timer = setInterval(() => this.tick(), TICK_MS);
    // The server keeps the process alive; this timer must not.
    this.#timer.unref();
  }

  /**
   * One look (the timer's; tests call it). A tick with no request since the last one ends the
   * watch (an idle server wakes for nothing), collecting first if the heap grew enough. Returns
   * whether it collected.
   */
  tick(): boolean {
    if (this.#requests !== this.#seen) {
      this.#seen = this.#requests;
      return false;
    }
    this.#endWatch();
    if (!this.#gc || getHeapStatistics().total_heap_size - this.#baseline < WORTH_COLLECTING) return false;
    this.#gc();
    this.#baseline = getHeapStatistics().total_heap_size;
    return true;
  }

  /** For good (the server closes): requests still in flight start no watch. */
  stop(): void {
    this.#stopped = true;
    this.#endWatch();
  }

  #endWatch(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }
}

/** `gc`, exposed at run time; null where V8 refuses the flag. */
export function exposedGc(): (() => void) | null {
  const own = (globalThis as { gc?: () => void }).gc;
  if (typeof own === 'function') return own;
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('gc');
    return typeof gc === 'function' ? (gc as () => void) : null;
  } catch {
    return null;
  }
}
