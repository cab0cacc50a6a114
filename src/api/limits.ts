import { randomUUID } from 'node:crypto';
import type { ServerOptions } from 'node:http';
import type { Duplex } from 'node:stream';
import { BerthError } from '../domain/common/errors.js';
import { JSONAPI } from './documents.js';
import { errorResponse } from './errors.js';

/**
 * The limits `serve` puts on what clients send, against hostile or broken clients. Request bodies
 * are limited inside the app (1 MiB, state uploads 64 MiB); these belong to the listener.
 */
export interface ServerLimits {
  /** Largest request line plus headers, in bytes (node's maxHeaderSize); more gets a 431. */
  maxHeaderSize: number;
  /** Longest request target (path and query string), in bytes; more gets a 414. */
  maxUrlLength: number;
  /** Time a client has to send the request line and all headers; then 408 and disconnected. */
  headersTimeoutMs: number;
  /** Time a client has to send the whole request, body included; then 408 and disconnected. */
  requestTimeoutMs: number;
  /** How long an idle keep-alive connection stays open. */
  keepAliveTimeoutMs: number;
}

export const DEFAULT_LIMITS: ServerLimits = {
  maxHeaderSize: 16 * 1024,
  maxUrlLength: 8 * 1024,
  headersTimeoutMs: 30_000,
  requestTimeoutMs: 300_000,
  keepAliveTimeoutMs: 5_000,
};

/** Why a set of limits cannot work, or null when it can. */
export function limitsProblem(l: ServerLimits): string | null {
  for (const [name, value] of Object.entries(l)) {
    if (!Number.isInteger(value) || value <= 0) return `${name} must be a positive whole number, not ${value}`;
  }
  if (l.headersTimeoutMs > l.requestTimeoutMs) return 'the headers timeout cannot be longer than the request timeout';
  // The request line counts in node's header size: with less room, long URLs would get 431, never 414.
  if (l.maxHeaderSize < l.maxUrlLength + 1024)
    return `the header size limit must be at least ${l.maxUrlLength + 1024} bytes (the URL limit plus 1 KiB)`;
  return null;
}

/** Options of node's HTTP(S) server for these limits. */
export function nodeServerOptions(l: ServerLimits): ServerOptions {
  return {
    maxHeaderSize: l.maxHeaderSize,
    headersTimeout: l.headersTimeoutMs,
    requestTimeout: l.requestTimeoutMs,
    keepAliveTimeout: l.keepAliveTimeoutMs,
    // node's own answer to an HTTP/1.1 request without Host is an empty 400: serve refuses it
    // itself, with a JSON:API error (refusals.ts).
    requireHostHeader: false,
    // Node looks for expired requests only this often (30 s by default): a fraction of the
    // shortest timeout, so that a slow client is cut off close to its limit.
    connectionsCheckingInterval: Math.max(25, Math.min(5_000, Math.floor(l.headersTimeoutMs / 4))),
  };
}

/** A 414 error document when the request target is longer than the limit, else null. */
export function uriTooLong(target: string, maxUrlLength: number): Response | null {
  if (target.length <= maxUrlLength) return null;
  return errorResponse(
    new BerthError([
      {
        status: 414,
        title: 'uri too long',
        detail: `request URLs (path and query) are limited to ${maxUrlLength} bytes`,
      },
    ]),
  );
}

const REASONS: Record<number, string> = {
  400: 'Bad Request',
  408: 'Request Timeout',
  431: 'Request Header Fields Too Large',
};

function clientErrorItem(code: string | undefined): { status: number; title: string; detail: string } {
  switch (code) {
    case 'HPE_HEADER_OVERFLOW':
      return {
        status: 431,
        title: 'request header fields too large',
        detail: 'the request line and headers are larger than this server accepts',
      };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, title: 'request timeout', detail: 'the request was not received in time' };
    default:
      return { status: 400, title: 'bad request', detail: 'the request is not valid HTTP' };
  }
}

/**
 * node's `clientError` handler: what node would answer (431 for oversized headers, 408 for a
 * client too slow to send its request, 400 for broken HTTP), but as a JSON:API error document;
 * then the connection is closed.
 */
export function answerClientError(err: Error & { code?: string }, socket: Duplex): void {
  const pending = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
  if (err.code === 'ECONNRESET' || !socket.writable || pending?.headersSent) {
    socket.destroy();
    return;
  }
  const item = clientErrorItem(err.code);
  const body = JSON.stringify({ errors: [{ status: String(item.status), title: item.title, detail: item.detail }] });
  socket.end(
    `HTTP/1.1 ${item.status} ${REASONS[item.status]}\r\nContent-Type: ${JSONAPI}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nX-Request-Id: ${randomUUID()}\r\nConnection: close\r\n\r\n${body}`,
  );
  // A client that never reads nor closes does not get to keep the socket.
  setTimeout(() => socket.destroy(), 1000).unref();
}
