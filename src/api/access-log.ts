import { jsonLine, type LogFormat } from './serve-log.js';

/**
 * The access log of `serve`: one line per request, written in batches. Each write is a system
 * call, and a write to a pipe wakes its reader: one per request, or even one per turn of the
 * event loop, was a large share of the cost of a small request under load. Lines wait at most
 * `maxDelayMs` (or until `maxLines` are waiting); `flush` writes the rest at shutdown.
 *
 * Each line starts with the time it was added (when the answer was sent), UTC ISO-8601 with
 * milliseconds: `2026-01-31T09:15:02.123Z GET /api/v2/ping 200 0.4ms <request id>`. With the
 * `json` format (`serve --log-format json`), each is an object instead (`accessRecord`). `off`
 * (a `--log-level` above info) writes none.
 */
export class AccessLog {
  #lines: string[] = [];
  #timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly write: (text: string) => void,
    private readonly options: { maxDelayMs: number; maxLines: number } = { maxDelayMs: 50, maxLines: 1000 },
    private readonly now: () => Date = () => new Date(),
    private readonly output: { format?: LogFormat; off?: boolean } = {},
  ) {}

  add(line: string): void {
    if (this.output.off) return;
    const entry =
      this.output.format === 'json' ? accessRecord(this.now(), line) : `${this.now().toISOString()} ${line}`;
    if (this.#lines.push(entry) >= this.options.maxLines) {
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

/**
 * An access line (`METHOD PATH STATUS MSms REQUEST-ID`, as serve and cached-answers.ts write it)
 * as one JSON object: `{"time", "level": "info", "msg": "request", "method", "path", "status",
 * "duration_ms", "request_id"}`. A line of another shape keeps its text as the `msg`.
 */
export function accessRecord(time: Date, line: string): string {
  const m = /^(\S+) (\S+) (\d{3}) (\d+(?:\.\d+)?)ms (\S+)$/.exec(line);
  if (!m) return jsonLine(time, 'info', line);
  return jsonLine(time, 'info', 'request', {
    method: m[1],
    path: m[2],
    status: Number(m[3]),
    duration_ms: Number(m[4]),
    request_id: m[5],
  });
}

/**
 * What the access log records of a request target: its path, without the query string (a
 * hosted-state or configuration upload URL carries its signature there), and with the signature
 * of a log-read URL (`/run-logs/:phase/:expires/:signature`, signed in the path because go-tfe's
 * log reader replaces the query) replaced by `REDACTED`. The path is normalized first (dot
 * segments, percent-encoding), as the router sees it, so no spelling of the route escapes.
 */
export function loggedPath(target: string): string {
  const q = target.indexOf('?');
  const path = q === -1 ? target : target.slice(0, q);
  if (!/run-logs|%|\/\.|^[a-z]+:/i.test(path)) return path;
  let segments: string[];
  try {
    segments = new URL(path, 'http://berth.invalid').pathname.split('/');
  } catch {
    return path;
  }
  const at = segments.findIndex((s) => decodeSegment(s) === 'run-logs');
  // Anything after the phase: the expiry, the signature, and whatever follows (never a route).
  if (at === -1 || segments.length <= at + 2) return path;
  return [...segments.slice(0, at + 2), 'REDACTED'].join('/');
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment).toLowerCase();
  } catch {
    return segment.toLowerCase();
  }
}
