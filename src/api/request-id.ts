import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './env.js';

export const REQUEST_ID_HEADER = 'X-Request-Id';

/**
 * The first middleware: gives every request a fresh id (a random UUID), keeps it in the context
 * (`c.get('requestId')`, which the audit trail records) and returns it in `X-Request-Id` on every
 * response, errors and 404s included. An `X-Request-Id` sent by the client is ignored on purpose:
 * the audit trail relies on ids being unique and chosen by the server (see docs/api.md).
 */
export function requestIdMiddleware(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const id = randomUUID();
    c.set('requestId', id);
    await next();
    try {
      c.res.headers.set(REQUEST_ID_HEADER, id);
    } catch {
      // Immutable headers (a response made elsewhere): copy it once to add ours.
      const res = new Response(c.res.body, c.res);
      res.headers.set(REQUEST_ID_HEADER, id);
      c.res = res;
    }
  };
}
