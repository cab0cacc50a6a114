/**
 * The log of `berth serve` (stderr): `--log-format text` (the default: the lines serve has always
 * written, unchanged) or `json` (one JSON object per line: `time`, `level`, `msg`, then the fields
 * of the entry at the top level), and `--log-level` (entries below it are not written).
 *
 * - Plain lines (start-up, warnings, errors, the scheduler's and the executor's words) keep their
 *   text; their level is read from their words (`levelOfLine`). In json, the text is the `msg`.
 * - Entries (a run's lifecycle) have a message and fields: in text, `TIME MSG key=value ...` (a
 *   value with a space or a quote is quoted as JSON), in json an object.
 * - The access log (access-log.ts) writes its batches through `raw`, already formatted.
 */
export const LOG_FORMATS = ['text', 'json'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

export const LOG_LEVELS = ['debug', 'info', 'warn', 'error'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export type LogFields = Record<string, string | number | boolean | null | undefined>;

export interface ServeLogger {
  readonly format: LogFormat;
  /** Whether entries of `level` are written. */
  enabled: (level: LogLevel) => boolean;
  /** A line of serve's own words, its level read from them; `always`: whatever the level (serve's ready line). */
  line: (text: string, options?: { always?: boolean }) => void;
  /** An entry with fields; `always`: written whatever the level (a secret shown only once). */
  entry: (level: LogLevel, msg: string, fields?: LogFields, options?: { always?: boolean }) => void;
  /** Lines already formatted (the access log's batch), written as they are. */
  raw: (lines: string) => void;
}

/**
 * A logger over `write`, which writes its text and a line break (serve's `log`, stderr in the
 * CLI). `now` stamps entries (tests fix it).
 */
export function serveLogger(
  write: (lines: string) => void,
  options: { format?: LogFormat; level?: LogLevel; now?: () => Date } = {},
): ServeLogger {
  const format = options.format ?? 'text';
  const least = LOG_LEVELS.indexOf(options.level ?? 'info');
  const now = options.now ?? (() => new Date());
  const enabled = (level: LogLevel) => LOG_LEVELS.indexOf(level) >= least;
  return {
    format,
    enabled,
    line: (text, lineOptions = {}) => {
      const level = levelOfLine(text);
      if (!lineOptions.always && !enabled(level)) return;
      write(format === 'json' ? jsonLine(now(), level, text) : text);
    },
    entry: (level, msg, fields = {}, entryOptions = {}) => {
      if (!entryOptions.always && !enabled(level)) return;
      write(format === 'json' ? jsonLine(now(), level, msg, fields) : textLine(now(), msg, fields));
    },
    raw: write,
  };
}

/** One JSON object: time, level and msg first, then the fields that are set (never overriding those three). */
export function jsonLine(time: Date, level: LogLevel, msg: string, fields: LogFields = {}): string {
  const record: Record<string, unknown> = { time: time.toISOString(), level, msg };
  for (const [key, value] of Object.entries(fields)) if (value !== undefined && !(key in record)) record[key] = value;
  return JSON.stringify(record);
}

/** `TIME MSG key=value ...`, as the access log's lines start with their time. */
export function textLine(time: Date, msg: string, fields: LogFields = {}): string {
  const pairs = Object.entries(fields)
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([key, value]) => `${key}=${textValue(value as string | number | boolean)}`);
  return [time.toISOString(), msg, ...pairs].join(' ');
}

function textValue(value: string | number | boolean): string {
  const text = String(value);
  return text === '' || /[\s"=\\]/.test(text) ? JSON.stringify(text) : text;
}

/**
 * The level of one of serve's plain lines, from its words: `warning: ...` and what serve could not
 * do (`cannot ...`, `... could not ...`) are warnings; unexpected errors, an unreachable database
 * and failures (`prune failed: ...`) are errors; the rest is information.
 */
export function levelOfLine(text: string): LogLevel {
  if (/^(unexpected error|database unavailable)\b/.test(text) || /\bfailed:/.test(text)) return 'error';
  if (/^warning\b/i.test(text) || /^cannot\b/.test(text) || /\bcould not\b/.test(text)) return 'warn';
  return 'info';
}
