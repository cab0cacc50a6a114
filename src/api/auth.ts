import type { MiddlewareHandler } from 'hono';
import { unauthorized } from '../domain/errors.js';
import { authenticate } from '../services/tokens.js';
import { DEFAULT_SETTINGS } from '../services/context.js';
import { systemClock } from '../domain/clock.js';
import type { AppEnv, AppOptions } from './env.js';

/**
 * Turns `Authorization: Bearer TOKEN` into the request's actor and service context. A missing or
 * unknown token is a 401, except in local mode where a tokenless request acts as `localActor`.
 */
export function authMiddleware(options: AppOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const header = c.req.header('authorization');
    let actor = options.localActor ?? null;
    if (header !== undefined) {
      const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
      actor = match ? await authenticate(options.db, match[1], (options.clock ?? systemClock).now()) : null;
      if (!actor) throw unauthorized('the token is missing, malformed, revoked or unknown');
      options.onAuthenticated?.(header);
    }
    if (!actor) throw unauthorized('an Authorization: Bearer token is required');
    c.set('actor', actor);
    c.set('ctx', {
      db: options.db,
      actor,
      clock: options.clock ?? systemClock,
      settings: options.settings ?? DEFAULT_SETTINGS,
      commitHook: c.get('commitHook'),
    });
    await next();
  };
}
