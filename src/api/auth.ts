import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import type { Actor } from '../domain/permissions/actor.js';
import { notFound, unauthorized } from '../domain/common/errors.js';
import { authenticateUntil } from '../services/identity/tokens.js';
import { DEFAULT_SETTINGS } from '../services/context.js';
import { systemClock } from '../domain/common/clock.js';
import type { AppEnv, AppOptions } from './env.js';
import { requestHeader } from './node-headers.js';

/**
 * When the token of a request under `serve` expires (milliseconds since the epoch), for tokens
 * that do: the read cache keeps the request's answer no longer (serve.ts, read-cache.ts).
 */
export const tokenExpiries = new WeakMap<object, number>();

/**
 * The actor of each request under `serve` whose token was accepted: whose share of the read gate
 * its token's next requests take (read-gate.ts).
 */
export const requestActors = new WeakMap<object, Actor>();

/**
 * The only routes a run's token reaches (method and pattern under /api/v2): its organization's
 * entitlements (which terraform's `remote` backend reads first), workspaces one at a time, their
 * state versions and outputs, and creating a state version (under the lock its run holds; it
 * neither locks nor unlocks: the run's lock is released when the run ends). Which workspaces
 * is the policy's (domain/permissions/policy.ts, `runCan`). Every other route answers it 404, as if it did
 * not exist, and so does any `include` (a run reads no related resources).
 */
const RUN_TOKEN_ROUTES = new Set([
  'GET /organizations/:name/entitlement-set',
  'GET /workspaces/:id',
  'GET /organizations/:org/workspaces/:name',
  'GET /workspaces/:id/current-state-version',
  'GET /workspaces/:id/current-state-version-outputs',
  'GET /workspaces/:id/state-versions',
  'GET /state-versions',
  'GET /state-versions/:id',
  'GET /state-versions/:id/outputs',
  'GET /state-version-outputs/:id',
  'POST /workspaces/:id/state-versions',
  // The module registry protocol: the configuration a run executes may use its organization's modules.
  'GET /api/registry/v1/modules/:namespace/:name/:provider/versions',
  'GET /api/registry/v1/modules/:namespace/:name/:provider/:version/download',
  // The provider registry protocol and its organization's mirror: what the run's `terraform init` installs.
  'GET /api/registry/v1/providers/:namespace/:type/versions',
  'GET /api/registry/v1/providers/:namespace/:type/:version/download/:os/:arch',
  'GET /api/registry/mirror/:org/:hostname/:namespace/:type/:file',
]);

/** Refuses (404) a run token's request for anything but `RUN_TOKEN_ROUTES`. */
function checkRunTokenRoute(c: Context<AppEnv>): void {
  const method = c.req.method === 'HEAD' ? 'GET' : c.req.method;
  const pattern = matchedRoutes(c).findLast((m) => m.method === method || m.method === c.req.method)?.path ?? '';
  const route = `${method} ${pattern.replace(/^\/api\/v2(?=\/)/, '')}`;
  if (!RUN_TOKEN_ROUTES.has(route) || new URL(c.req.url).searchParams.has('include'))
    throw notFound(`no route for ${c.req.method} ${new URL(c.req.url).pathname}`);
}

/**
 * Turns `Authorization: Bearer TOKEN` into the request's actor and service context. A missing or
 * unknown token is a 401, except in local mode where a tokenless request acts as `localActor`.
 */
export function authMiddleware(options: AppOptions): MiddlewareHandler<AppEnv> {
  const clock = options.clock ?? systemClock;
  const settings = options.settings ?? DEFAULT_SETTINGS;
  // Not `async`: a request refused here throws at once, and an accepted one returns `next()`'s promise.
  return (c, next) => {
    // Read from node's request under `serve` (node-headers.ts).
    const header = requestHeader(c, 'authorization');
    if (header === undefined) {
      if (!options.localActor) throw unauthorized('an Authorization: Bearer token is required');
      return proceed(c, next, options.localActor);
    }
    const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
    if (!match) throw unauthorized('the token is missing, malformed, revoked or unknown');
    return authenticateUntil(options.db, match[1], clock.now()).then((found) => {
      if (!found) throw unauthorized('the token is missing, malformed, revoked or unknown');
      if (found.actor.kind === 'run') checkRunTokenRoute(c);
      const incoming = (c.env as { incoming?: object } | undefined)?.incoming;
      options.onAuthenticated?.(header, found.actor, incoming);
      if (incoming) requestActors.set(incoming, found.actor);
      if (found.expiredAt !== null) {
        if (incoming) tokenExpiries.set(incoming, Date.parse(found.expiredAt));
      }
      return proceed(c, next, found.actor);
    });
  };

  function proceed(c: Context<AppEnv>, next: () => Promise<void>, actor: Actor) {
    c.set('actor', actor);
    c.set('ctx', { db: options.db, actor, clock, settings, commitHook: c.get('commitHook') });
    return next();
  }
}
