import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { JSONAPI } from './documents.js';
import { REQUEST_ID_HEADER } from './request-id.js';

export interface Refusal {
  status: number;
  title: string;
  detail: string;
}

const badRequest = (detail: string): Refusal => ({ status: 400, title: 'bad request', detail });

/**
 * Why `serve` cannot take a request that node's HTTP parser accepted, or null when it can. These
 * are the checks of the HTTP adapter (which would answer an empty 400), made first so that the
 * answer is a JSON:API error like every other: HTTP/1.1 needs a Host header, the target must be
 * a path (or an absolute http(s) URL; not `*` nor `host:port`), a path cannot hold a backslash,
 * and the Host must be a host name, with an optional port.
 */
export function requestProblem(req: IncomingMessage): Refusal | null {
  const host = req.headers.host;
  if (host === undefined) {
    return req.httpVersionMajor === 1 && req.httpVersionMinor === 0
      ? null
      : badRequest('HTTP/1.1 requests need a Host header');
  }
  const target = req.url ?? '';
  const absolute = target.startsWith('http://') || target.startsWith('https://');
  if (target[0] !== '/' && !absolute)
    return badRequest(`the request target must be a path starting with /, not ${JSON.stringify(target.slice(0, 100))}`);
  const backslash = target.indexOf('\\');
  if (backslash !== -1) {
    const query = target.indexOf('?');
    if (query === -1 || backslash < query) return badRequest('the request path cannot contain a backslash');
  }
  if (absolute) return URL.canParse(target) ? null : badRequest('the request target is not a valid URL');
  return validHost(host) ? null : badRequest('the Host header is not a valid host');
}

/**
 * Host values already judged, and their verdict. Clients send the same Host on every request,
 * and parsing a URL for it each time was a measurable part of a small request. The verdict
 * depends on the host alone (the target starts with `/` by then, so it cannot change where the
 * URL's host ends). Emptied when full: a client sending many hosts only loses the shortcut.
 */
const hostVerdicts = new Map<string, boolean>();
const MAX_HOST_VERDICTS = 256;

/** As the adapter builds the request's URL (`http://` + Host + target): the host must come out of it unchanged. */
function validHost(host: string): boolean {
  let verdict = hostVerdicts.get(host);
  if (verdict !== undefined) return verdict;
  try {
    const hostname = new URL(`http://${host}/`).hostname;
    verdict = hostname.length === host.length || hostname === host.replace(/:\d+$/, '');
  } catch {
    verdict = false;
  }
  if (hostVerdicts.size >= MAX_HOST_VERDICTS) hostVerdicts.clear();
  hostVerdicts.set(host, verdict);
  return verdict;
}

/** A JSON:API error document for a refusal, and its id. */
function document(refusal: Refusal): string {
  return JSON.stringify({
    errors: [{ status: String(refusal.status), title: refusal.title, detail: refusal.detail }],
  });
}

/** Answers a refusal on node's response object, with a fresh `X-Request-Id`; returns the id. */
export function refuse(res: ServerResponse, refusal: Refusal, headers: Record<string, string> = {}): string {
  const body = document(refusal);
  const requestId = randomUUID();
  res.writeHead(refusal.status, {
    'Content-Type': JSONAPI,
    'Content-Length': Buffer.byteLength(body),
    [REQUEST_ID_HEADER]: requestId,
    ...headers,
  });
  res.end(body);
  return requestId;
}

const REASONS: Record<number, string> = { 405: 'Method Not Allowed', 417: 'Expectation Failed' };

/**
 * node's `connect` event: a `CONNECT` request (a proxy tunnel), which `serve` is not. node would
 * only drop the connection; the answer is a 405 JSON:API error, and then the connection closes.
 * Returns the request id.
 */
export function refuseConnect(socket: Duplex): string {
  const refusal: Refusal = {
    status: 405,
    title: 'method not allowed',
    detail: 'berth is not a proxy: CONNECT is not supported',
  };
  const body = document(refusal);
  const requestId = randomUUID();
  socket.on('error', () => socket.destroy());
  socket.end(
    `HTTP/1.1 405 ${REASONS[405]}\r\nContent-Type: ${JSONAPI}\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${REQUEST_ID_HEADER}: ${requestId}\r\nAllow: GET, HEAD, POST, PUT, PATCH, DELETE\r\nConnection: close\r\n\r\n${body}`,
  );
  setTimeout(() => socket.destroy(), 1000).unref();
  return requestId;
}

/** An `Expect` other than `100-continue`: node would answer an empty 417. */
export function expectationFailed(req: IncomingMessage): Refusal {
  return {
    status: 417,
    title: 'expectation failed',
    detail: `the only expectation supported is 100-continue, not ${JSON.stringify(String(req.headers.expect).slice(0, 100))}`,
  };
}
