import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';

/** node's request behind `serve` (HTTP/1.1 or HTTP/2), absent when the app is called in-process. */
export function incomingOf(c: Context): IncomingMessage | undefined {
  return (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
}

/**
 * A request header as the Fetch API's `Headers` gives it (`c.req.header(name)`), read from node's
 * request when there is one. Asking hono makes the HTTP adapter build a `Headers` object of every
 * header, a few microseconds of every request, for one value. `name` is lower case. For the
 * headers of which node keeps only the first line (Authorization, Content-Type, ...), a repeated
 * header is joined from the raw lines with ", " as `Headers` does, so that it is refused as
 * before rather than half-read.
 */
export function requestHeader(c: Context, name: string): string | undefined {
  const incoming = incomingOf(c);
  if (!incoming?.headers) return c.req.header(name);
  const value = incoming.headers[name];
  if (value === undefined) return undefined;
  if (typeof value !== 'string') return value.join(', ');
  const raw = incoming.rawHeaders;
  let lines = 0;
  for (let i = 0; i < raw.length; i += 2) if (raw[i].length === name.length && raw[i].toLowerCase() === name) lines++;
  if (lines <= 1) return value;
  const values: string[] = [];
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i].length === name.length && raw[i].toLowerCase() === name) values.push(raw[i + 1]);
  return values.join(', ');
}
