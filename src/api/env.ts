import type { Kysely } from 'kysely';
import type { Actor } from '../domain/permissions/actor.js';
import type { Clock } from '../domain/common/clock.js';
import type { ServiceContext, InstanceSettings } from '../services/context.js';
import type { DB } from '../store/schema.js';
import type { CommitHook } from '../store/transaction.js';

export interface AppOptions {
  db: Kysely<DB>;
  clock?: Clock;
  settings?: InstanceSettings;
  /**
   * The actor for requests that carry no token. Only the in-process transport of local mode sets
   * it (to the site-administrator user `admin`); `serve` never does, so tokenless requests get 401.
   */
  localActor?: Actor;
  /**
   * One request per process (local mode): match routes with hono's LinearRouter, which needs no
   * start-up work, instead of the default router that compiles every route into one regular
   * expression on the first request (worth it only for a long-running server).
   */
  singleRequest?: boolean;
  /** Receives unexpected errors (logged by `serve`). */
  onUnexpectedError?: (err: unknown) => void;
  /**
   * Told the Authorization header and the actor of every request whose bearer token the API
   * accepted, with node's request under `serve` (whose rate limiter counts the request against
   * the token's user, team or organization). It may throw (a 429): the route does not run.
   */
  onAuthenticated?: (authorization: string, actor: Actor, incoming: object | undefined) => void;
  /** Milliseconds without a ping after which an agent is gone (`serve --agent-timeout`; default 30 s). */
  agentTimeoutMs?: number;
  /** Requests per second per agent token under /api/agent (`serve --agent-rate-limit`); absent or 0: none. */
  agentRateLimit?: number;
}

export interface AppEnv {
  Variables: {
    actor: Actor;
    ctx: ServiceContext;
    /** Set by the first middleware (request-id.ts) and returned in `X-Request-Id`. */
    requestId: string;
    /** Set by the audit trail's middleware for mutating requests; carried into `ctx`. */
    commitHook: CommitHook;
  };
}
