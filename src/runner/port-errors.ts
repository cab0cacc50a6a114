import { BerthError } from '../domain/common/errors.js';
import { AgentProtocolError } from './http-port.js';

/**
 * What a failed call of the executor's port (port.ts) means for the run it was about:
 * - `transient`: berth could not take it now (SQLite's write lock held by another process past its
 *   wait, PostgreSQL or berth unreachable, a 503 or 429 over HTTP): worth trying again;
 * - `vanished`: the run is no longer this executor's: deleted (with its workspace or organization:
 *   a 404, or the log's foreign key to the run failed), or ended without it (a 409: the agent was
 *   given up and its runs ended, or the run already ended);
 * - `failed`: anything else (a bug, a refusal): the phase cannot go on.
 */
export type PortFailure = 'transient' | 'vanished' | 'failed';

/** SQLite's lock errors, and PostgreSQL's connection, resource and operator classes (SQLSTATE). */
const BUSY_CODES = new Set(['SQLITE_BUSY', 'SQLITE_BUSY_RECOVERY', 'SQLITE_BUSY_TIMEOUT', 'SQLITE_LOCKED']);
const UNAVAILABLE_SQLSTATE = /^(08|53|57)[0-9A-Z]{3}$|^40001$|^40P01$/;
const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ECONNRESET',
  'ENOTFOUND',
  'EAI_AGAIN',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'EPIPE',
  'UND_ERR_SOCKET',
  'UND_ERR_CONNECT_TIMEOUT',
]);
/** A write whose run row is gone: SQLite's and PostgreSQL's (23503) foreign key failures. */
const GONE_CODES = new Set(['SQLITE_CONSTRAINT_FOREIGNKEY', '23503']);

const codeOf = (err: unknown): string | undefined => {
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
};

export function portFailureOf(err: unknown): PortFailure {
  if (err instanceof AgentProtocolError || err instanceof BerthError) {
    if ([429, 502, 503, 504].includes(err.status)) return 'transient';
    if (err.status === 404 || err.status === 409) return 'vanished';
    return 'failed';
  }
  const code = codeOf(err);
  if (code && GONE_CODES.has(code)) return 'vanished';
  // fetch's own failure (berth unreachable once http-port.ts gave up) carries the cause's code.
  const codes = [code, codeOf((err as { cause?: unknown } | null)?.cause)];
  for (const c of codes) {
    if (!c) continue;
    if (BUSY_CODES.has(c) || UNREACHABLE.has(c) || UNAVAILABLE_SQLSTATE.test(c)) return 'transient';
  }
  return 'failed';
}

/** A failure as one line of a log: its message, never its stack. */
export function reasonOf(err: unknown): string {
  const message = (err as Error | null)?.message;
  return typeof message === 'string' && message ? message : String(err);
}

export interface RetryOptions {
  /** Tries after the first (default 8: with SQLite's own 10 s wait each, minutes in all). */
  retries?: number;
  /** How to wait before trying again (tests make it instant). */
  wait?: (ms: number) => Promise<void>;
  /** Told of the first transient failure only (so that it is logged once). */
  onFirstRetry?: (err: unknown) => void;
}

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The wait before try `attempt` (1, 2, ...): half a second, doubling, at most 30 s. */
export const retryDelay = (attempt: number): number => Math.min(30_000, 500 * 2 ** (attempt - 1));

/** `call`, tried again while it fails transiently (portFailureOf), up to `retries` more times. */
export async function retryTransient<T>(call: () => Promise<T>, options: RetryOptions = {}): Promise<T> {
  const retries = options.retries ?? 8;
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (err) {
      if (attempt > retries || portFailureOf(err) !== 'transient') throw err;
      if (attempt === 1) options.onFirstRetry?.(err);
      await (options.wait ?? sleep)(retryDelay(attempt));
    }
  }
}
