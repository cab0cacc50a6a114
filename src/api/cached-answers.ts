import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { ReadCache } from './read-cache.js';
import { knownSubject, rateLimitHeaders, type KnownTokens, type RateLimiter } from './rate-limit.js';

export type NodeListener = (req: IncomingMessage, res: ServerResponse) => void;

/**
 * Requests whose database stamp could not be taken here (the database is unreachable), with the
 * error: the full path answers them without asking the database a second time.
 */
export const stampFailures = new WeakMap<object, unknown>();

export interface CachedAnswersOptions {
  readCache: ReadCache;
  limiter: RateLimiter | null;
  /** The tokens that have a rate limit bucket of their own (rate-limit.ts). */
  knownTokens: KnownTokens;
  maxUrlLength: number;
  /** Paths the read cache serves (under /api/v2). */
  apiPath: RegExp;
  /** While shutting down, every request takes the full path (it closes connections). */
  closing: () => boolean;
  /** One access log line, in the format of the full path. */
  logAccess: (line: string) => void;
}

/**
 * The shortest way through `serve` for its most frequent request: a GET that the read cache can
 * answer (polling clients ask the same thing again and again). It is answered straight on Node's
 * request and response objects, without the Fetch API objects of the HTTP adapter, with what the
 * full path gives such an answer: the rate limit and its headers, a fresh `X-Request-Id`, an
 * access log line. Anything else (a miss, a refusal, another method, a long URL, a shutdown)
 * goes to `next`, the full path, untouched (but for a stamp that could not be taken: see
 * `stampFailures`).
 */
export function cachedAnswers(options: CachedAnswersOptions, next: NodeListener): NodeListener {
  const { readCache, limiter, knownTokens } = options;
  const answer = (req: IncomingMessage, res: ServerResponse, target: string, stamp: string, started: number): void => {
    const hit = readCache.get(ReadCache.key(req.headers.authorization, target), stamp);
    if (!hit) return next(req, res);
    const requestId = randomUUID();
    // A flat name, value, ... list: Node writes it as it is, with no header object to build.
    const headers = hit.headerList.concat('x-request-id', requestId);
    if (limiter) {
      // Only a token the API accepted lately is counted here (against its user, team or
      // organization); any other request takes the full path, which counts it (rate-limit.ts).
      const subject = knownSubject(req.headers.authorization, knownTokens);
      if (subject === null) return next(req, res);
      const decision = limiter.take(subject);
      // Refused: the full path answers the 429 (a refused take consumes nothing).
      if (!decision.allowed) return next(req, res);
      for (const [name, value] of Object.entries(rateLimitHeaders(decision))) headers.push(name, value);
    }
    res.writeHead(200, headers);
    res.end(hit.body);
    const q = target.indexOf('?');
    options.logAccess(
      `GET ${q === -1 ? target : target.slice(0, q)} 200 ${(performance.now() - started).toFixed(1)}ms ${requestId}`,
    );
  };
  return (req, res) => {
    const target = req.url ?? '/';
    if (
      req.method !== 'GET' ||
      target.length > options.maxUrlLength ||
      !options.apiPath.test(target) ||
      // Refused by the full path (refusals.ts).
      req.headers.host === undefined ||
      options.closing()
    )
      return next(req, res);
    const started = performance.now();
    const failed = (err: unknown) => {
      stampFailures.set(req, err);
      next(req, res);
    };
    let stamp: string | Promise<string>;
    try {
      stamp = readCache.currentStamp();
    } catch (err) {
      return failed(err);
    }
    if (typeof stamp === 'string') return answer(req, res, target, stamp, started);
    // PostgreSQL: the stamp is a round trip to the server.
    stamp.then((s) => answer(req, res, target, s, started), failed);
  };
}
