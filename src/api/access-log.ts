/**
 * The access log of `serve`: one line per request, written in batches. Each write is a system
 * call, and a write to a pipe wakes its reader: one per request, or even one per turn of the
 * event loop, was a large share of the cost of a small request under load. Lines wait at most
 * `maxDelayMs` (or until `maxLines` are waiting); `flush` writes the rest at shutdown.
 */
export class AccessLog {
  #lines: string[] = [];
  #timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly write: (text: string) => void,
    private readonly options: { maxDelayMs: number; maxLines: number } = { maxDelayMs: 50, maxLines: 1000 },
  ) {}

  add(line: string): void {
    if (this.#lines.push(line) >= this.options.maxLines) {
      this.flush();
    } else if (!this.#timer) {
      this.#timer = setTimeout(() => this.flush(), this.options.maxDelayMs);
      // The server keeps the process alive, and shutdown flushes: the timer need not.
      this.#timer.unref();
    }
  }

  flush(): void {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const lines = this.#lines;
    if (lines.length === 0) return;
    this.#lines = [];
    this.write(lines.join('\n'));
  }
}
