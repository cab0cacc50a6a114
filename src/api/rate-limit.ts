import { hashToken } from '../domain/token.js';

/** HCP Terraform's documented default: 30 requests per second per user (or per address). */
export const DEFAULT_RATE_LIMIT = 30;

/** Most keys kept at once; beyond it the key whose window started first is dropped. */
export const DEFAULT_MAX_KEYS = 50_000;

const WINDOW_MS = 1000;

export interface RateDecision {
  allowed: boolean;
  limit: number;
  /** Requests still allowed in the current window. */
  remaining: number;
  /** Seconds until the current window ends (and the count starts again). */
  resetSeconds: number;
}

interface Window {
  start: number;
  count: number;
}

/**
 * A fixed one-second window per key, O(1) per request. Keys sit in a Map in the order their
 * current window started (a key is moved to the end when a new window starts for it), so the
 * expired ones are always at the front: each call drops a few of them, which keeps memory to
 * the keys seen in the last second, and never more than `maxKeys`.
 */
export class RateLimiter {
  private readonly windows = new Map<string, Window>();

  constructor(
    readonly limit: number,
    private readonly options: { maxKeys?: number; now?: () => number } = {},
  ) {}

  /** How many keys are held now (tests check that idle ones go). */
  get size(): number {
    return this.windows.size;
  }

  take(key: string): RateDecision {
    const now = this.options.now ? this.options.now() : performance.now();
    this.evict(now);
    let w = this.windows.get(key);
    if (!w || now - w.start >= WINDOW_MS) {
      if (w) this.windows.delete(key);
      w = { start: now, count: 0 };
      this.windows.set(key, w);
      this.cap();
    }
    const allowed = w.count < this.limit;
    if (allowed) w.count += 1;
    return {
      allowed,
      limit: this.limit,
      remaining: this.limit - w.count,
      resetSeconds: Math.max(0, (w.start + WINDOW_MS - now) / 1000),
    };
  }

  /** Drops up to a few expired windows from the front (amortised O(1)). */
  private evict(now: number): void {
    let budget = 4;
    for (const [key, w] of this.windows) {
      if (budget-- === 0 || now - w.start < WINDOW_MS) return;
      this.windows.delete(key);
    }
  }

  private cap(): void {
    const max = this.options.maxKeys ?? DEFAULT_MAX_KEYS;
    while (this.windows.size > max) {
      const oldest = this.windows.keys().next().value as string;
      this.windows.delete(oldest);
    }
  }
}

/**
 * What a request is counted against: the hash of its bearer token (never the token itself), or
 * the client's address when it carries none (ping, state content URLs, malformed headers).
 */
export function rateLimitKey(authorization: string | undefined, address: string | undefined): string {
  const match = authorization === undefined ? null : /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  if (match) return `t:${hashToken(match[1]!)}`;
  return `a:${address ?? 'unknown'}`;
}

/** The X-RateLimit-* headers of a decision (Reset in seconds, fractional, as HCP Terraform sends). */
export function rateLimitHeaders(d: RateDecision): Record<string, string> {
  return {
    'X-RateLimit-Limit': String(d.limit),
    'X-RateLimit-Remaining': String(d.remaining),
    'X-RateLimit-Reset': d.resetSeconds.toFixed(3),
  };
}

/** Retry-After takes whole seconds: the reset rounded up, at least 1. */
export function retryAfterSeconds(d: RateDecision): number {
  return Math.max(1, Math.ceil(d.resetSeconds));
}
