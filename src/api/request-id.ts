import { randomUUID } from 'node:crypto';
import type { MiddlewareHandler } from 'hono';
import type { AppEnv } from './env.js';
import { renderedDocument } from './documents.js';

export const REQUEST_ID_HEADER = 'X-Request-Id';

const requestIds = new WeakMap<object, string>();

/** The id the app gave the request whose bindings (`serve`'s node request and response) are `env`. */
export function requestIdOf(env: object): string | undefined {
  return requestIds.get(env);
}

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
    // For serve's access log, without reading it back from the response's headers.
    if (typeof c.env === 'object' && c.env !== null) requestIds.set(c.env, id);
    await next();
    // Documents carry it already (documents.ts); reading `c.res.headers` would cost their making.
    if (renderedDocument(c.res)) return;
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
