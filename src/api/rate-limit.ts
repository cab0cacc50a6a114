import { BerthError } from '../domain/common/errors.js';
import type { Actor } from '../domain/permissions/actor.js';
import { hashToken } from '../domain/identity/token.js';

/**
 * HCP Terraform's documented default: 30 requests per second per user (the tokens of one user
 * share it), per address for requests without a token.
 */
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
  key: string;
  start: number;
  count: number;
}

/**
 * A fixed one-second window per key, O(1) per request. Each window, when it starts, also joins
 * the back of a queue; windows end in the order they started, so the ended ones are always at
 * the front. Each call drops a few of them (amortised O(1)), which keeps memory to the keys
 * seen in the last second, and never more than `maxKeys`: past that, the oldest go first.
 */
export class RateLimiter {
  private readonly current = new Map<string, Window>();
  private queue: (Window | undefined)[] = [];
  private head = 0;

  constructor(
    readonly limit: number,
    private readonly options: { maxKeys?: number; now?: () => number } = {},
  ) {}

  /** How many keys are held now (tests check that idle ones go). */
  get size(): number {
    return this.current.size;
  }

  take(key: string): RateDecision {
    const now = this.options.now ? this.options.now() : performance.now();
    this.expire(now);
    let w = this.current.get(key);
    if (!w || now - w.start >= WINDOW_MS) {
      w = { key, start: now, count: 0 };
      this.current.set(key, w);
      this.queue.push(w);
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

  /**
   * Gives back one request taken from `key` in its current window: it turned out to belong to
   * another key (a token's first request, counted against its address until the API accepted it).
   */
  refund(key: string): void {
    const w = this.current.get(key);
    const now = this.options.now ? this.options.now() : performance.now();
    if (w && now - w.start < WINDOW_MS && w.count > 0) w.count -= 1;
  }

  /** Drops up to four ended windows from the front of the queue. */
  private expire(now: number): void {
    for (let budget = 4; budget > 0 && this.head < this.queue.length; budget--) {
      if (now - this.queue[this.head]!.start < WINDOW_MS) return;
      this.dropHead();
    }
  }

  private cap(): void {
    const max = this.options.maxKeys ?? DEFAULT_MAX_KEYS;
    while (this.current.size > max) this.dropHead();
  }

  /** Removes the front window, and its key unless a newer window of that key has begun. */
  private dropHead(): void {
    const w = this.queue[this.head]!;
    this.queue[this.head++] = undefined;
    if (this.current.get(w.key) === w) this.current.delete(w.key);
    // Compact now and then: the array never keeps more dead slots than live ones.
    if (this.head >= 1024 && this.head * 2 >= this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
  }
}

/** The key of a request's bearer token (`t:` and its hash, never the token itself), or null without one. */
export function tokenKey(authorization: string | undefined): string | null {
  if (authorization === undefined) return null;
  if (authorization === last.authorization) return last.key;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
  const key = match ? `t:${hashToken(match[1])}` : null;
  last = { authorization, key };
  return key;
}

/**
 * The last header hashed, and its key. A rate-limited request asks for its key up to three times
 * (its bucket, the token's first acceptance, the answer's headers), and clients send the same
 * header request after request: each was a SHA-256 of its own. One entry only: no store of
 * tokens in memory beyond the request that carried the last one.
 */
let last: { authorization: string; key: string | null } = { authorization: '', key: null };

/**
 * The bucket an authenticated actor counts against. As HCP Terraform does, a request is counted
 * against the user its token belongs to: a user's tokens share one budget, so more tokens bring
 * no more requests. A team token acts as its team (HCP: the team's service account; a team's
 * tokens share its budget), an organization token as its organization's, an audit trail token as
 * that organization's audit trail.
 */
export function subjectKey(actor: Actor): string {
  switch (actor.kind) {
    case 'user':
      return `u:${actor.userId}`;
    case 'team':
      return `team:${actor.teamId}`;
    case 'organization':
      return `org:${actor.organizationId}`;
    case 'audit-trail':
      return `audit:${actor.organizationId}`;
    case 'run':
      return `run:${actor.runId}`;
    case 'site-admin':
      return 'site-admin';
  }
}

/** Routes under /api/v2 that read no token (their credential, if any, is in the body): method and path. */
const TOKENLESS_ROUTES: Record<string, RegExp> = {
  GET: /^\/api\/v2\/ping$/,
  HEAD: /^\/api\/v2\/ping$/,
  POST: /^\/api\/v2\/(?:console\/sign-ins|terraform-login\/token)$/,
};

/** A hosted-state URL (state-versions routes): signed, read without a token. */
const STATE_CONTENT = /^\/api\/v2\/state-versions\/([^/]+)\/(content|json-content)$/;

/** Checks a hosted-state URL's signature (services/state/state-urls.ts), without a database read. */
export type SignedStateUrlCheck = (
  id: string,
  kind: 'state' | 'json-state',
  use: 'upload' | 'download',
  query: { expires: string | undefined; signature: string | undefined },
) => boolean;

/** What serve knows of a request under /api/v2 before the app reads it. */
export interface RateRequest {
  method: string;
  /** The path the app routes on (decoded, without the query string). */
  path: string;
  /** The query string, without `?`. */
  query: string;
  authorization: string | undefined;
  address: string | undefined;
}

/**
 * The bucket a request is counted against before the app reads it, or null when that can only be
 * known once the API has read its token (an unknown bearer token: its subject's bucket if the API
 * accepts it, else the address's failed-authentication bucket; see serve.ts). No database read:
 *
 * - a token the API accepted lately: its subject (user, team, organization; `known`);
 * - a hosted-state URL: its signature is its credential, so a valid one counts against its state
 *   version (`s:`), whatever the address; an invalid or expired one is a failed authentication;
 * - the routes that read no token (ping, the console's sign-in, `terraform login`'s token
 *   endpoint): the client address (`a:`), whatever Authorization header they carry;
 * - anything else without a bearer token (none, or a malformed header) cannot authenticate: the
 *   address's failed-authentication bucket (`x:`), which made-up credentials spend, so that
 *   they never spend the budget of tokenless routes, state URLs or new tokens.
 */
export function rateLimitKey(
  req: RateRequest,
  known: { subjectOf(key: string): string | undefined },
  signedStateUrl?: SignedStateUrlCheck,
): string | null {
  const address = req.address ?? 'unknown';
  const method = req.method === 'HEAD' ? 'GET' : req.method;
  const state = method === 'GET' || method === 'PUT' ? STATE_CONTENT.exec(req.path) : null;
  if (state) {
    const params = new URLSearchParams(req.query);
    const query = { expires: params.get('expires') ?? undefined, signature: params.get('signature') ?? undefined };
    const kind = state[2] === 'content' ? 'state' : 'json-state';
    return signedStateUrl?.(state[1], kind, method === 'PUT' ? 'upload' : 'download', query)
      ? `s:${state[1]}`
      : failedAuthenticationKey(address);
  }
  if (TOKENLESS_ROUTES[req.method]?.test(req.path)) return `a:${address}`;
  const key = tokenKey(req.authorization);
  if (!key) return failedAuthenticationKey(address);
  return known.subjectOf(key) ?? null;
}

/** The bucket of failed authentications (unknown tokens, bad signatures, no token) of an address. */
export function failedAuthenticationKey(address: string | undefined): string {
  return `x:${address ?? 'unknown'}`;
}

/** The subject of a request's bearer token if the API accepted it lately, else null. */
export function knownSubject(
  authorization: string | undefined,
  known: { subjectOf(key: string): string | undefined },
): string | null {
  const key = tokenKey(authorization);
  return (key && known.subjectOf(key)) || null;
}

/**
 * The tokens that authenticated lately, each with its subject (a token is learned when the API
 * accepts it, forgotten when the API refuses it with a 401), at most `max`: past that, the one
 * learned first is forgotten (its next request counts against its address and learns it again).
 * A token's subject never changes (a token belongs to one user, team or organization for life).
 */
export class KnownTokens {
  readonly #subjects = new Map<string, string>();

  constructor(private readonly max = DEFAULT_MAX_KEYS) {}

  has(key: string): boolean {
    return this.#subjects.has(key);
  }

  subjectOf(key: string): string | undefined {
    return this.#subjects.get(key);
  }

  add(key: string, subject: string): void {
    if (this.#subjects.has(key)) return;
    if (this.#subjects.size >= this.max) this.#subjects.delete(this.#subjects.keys().next().value!);
    this.#subjects.set(key, subject);
  }

  delete(key: string): void {
    this.#subjects.delete(key);
  }

  get size(): number {
    return this.#subjects.size;
  }
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

/**
 * The 429 error of a refused decision, with Retry-After (and `headers`): `whose` names the budget
 * in its detail (" with this agent token").
 */
export function rateLimitedError(decision: RateDecision, whose = '', headers: Record<string, string> = {}): BerthError {
  return new BerthError(
    [
      {
        status: 429,
        title: 'Too many requests',
        detail: `more than ${decision.limit} requests per second${whose}; retry after the time in Retry-After`,
      },
    ],
    { ...headers, 'Retry-After': String(retryAfterSeconds(decision)) },
  );
}
