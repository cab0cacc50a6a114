import type { IncomingMessage } from 'node:http';
import type { Context, MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';

/**
 * hono's body limit, with a shortcut for requests that came through node's HTTP/1.1 server
 * (`serve`), whose framing headers settle the question without touching the body: a declared
 * Content-Length is compared with the limit (as hono does), and a request with neither
 * Content-Length nor Transfer-Encoding has, by HTTP/1.1's rules, an empty body. hono would build
 * the Fetch API request and its body stream to find that out, twice for an empty body: a large
 * share of a small write's cost. Everything else (chunked bodies, requests handed to the app
 * in-process) goes through hono's middleware.
 */
export function requestBodyLimit(
  maxSize: number,
  onError: (c: Context) => Response | Promise<Response>,
): MiddlewareHandler {
  const general = bodyLimit({ maxSize, onError });
  return (c, next) => {
    const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
    if (!incoming || incoming.httpVersionMajor !== 1 || 'transfer-encoding' in incoming.headers)
      return general(c, next);
    // GET, HEAD (and TRACE) requests get no body from the HTTP adapter: hono lets them through.
    if (c.req.method === 'GET' || c.req.method === 'HEAD' || c.req.method === 'TRACE') return next();
    const length = incoming.headers['content-length'];
    if (length === undefined) return next();
    return parseInt(length || '0', 10) > maxSize ? Promise.resolve(onError(c)) : next();
  };
}
