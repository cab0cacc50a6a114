import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { badRequest } from '../domain/common/errors.js';
import type { AppEnv } from './env.js';

/** Bytes copied between two turns of the event loop (other requests get theirs). */
const YIELD_BYTES = 2 * 1024 * 1024;

/**
 * The body of a state upload, as one buffer. Behind `serve`, when the request says its length
 * (the state route's limit has checked it), it is read straight from node's request into a buffer
 * of that size, a chunk at a time: no web stream in between and no concatenation of tens of
 * megabytes at the end, both of which held the event loop for a while. Otherwise (local mode, a
 * chunked body) it is read through hono.
 */
export async function readStateBody(c: Context<AppEnv>): Promise<Buffer> {
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  const header = c.req.header('content-length');
  const length = header === undefined ? NaN : Number(header);
  if (!incoming || !Number.isSafeInteger(length) || length < 0 || incoming.readableDidRead)
    return Buffer.from(await c.req.arrayBuffer());
  const out = Buffer.allocUnsafe(length);
  let at = 0;
  let sinceTurn = 0;
  for await (const chunk of incoming as AsyncIterable<Buffer>) {
    if (at + chunk.length > length) throw badRequest('the request body is longer than its Content-Length');
    chunk.copy(out, at);
    at += chunk.length;
    // Chunks already received are handed over without a turn of the event loop in between.
    sinceTurn += chunk.length;
    if (sinceTurn >= YIELD_BYTES) {
      sinceTurn = 0;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
  if (at !== length) throw badRequest('the request body is shorter than its Content-Length');
  return out;
}
