import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { payloadTooLarge } from '../../../domain/common/errors.js';
import type { AppEnv } from '../../env.js';
import { requestHeader } from '../../node-headers.js';

/**
 * The body of an archive upload as the chunks that arrive, never gathered whole: behind `serve`,
 * node's request itself; in-process (local mode) or under a test, the request's stream or the
 * bytes it already holds. A Content-Length past `limit` is a 413 before anything is read (the
 * store refuses a longer chunked body as it passes the limit).
 */
export function uploadChunks(
  c: Context<AppEnv>,
  limit: number,
  what: string,
): AsyncIterable<Uint8Array> | Iterable<Uint8Array> {
  const header = requestHeader(c, 'content-length');
  if (header !== undefined && Number(header) > limit) throw payloadTooLarge(`${what} is limited to ${limit} bytes`);
  const incoming = (c.env as { incoming?: IncomingMessage } | undefined)?.incoming;
  if (incoming && !incoming.readableDidRead) return incoming as AsyncIterable<Buffer>;
  const body = (c.req.raw as { body: unknown }).body;
  if (body instanceof ReadableStream) return streamChunks(body as ReadableStream<Uint8Array>);
  return [body instanceof Uint8Array ? body : new Uint8Array(0)];
}

async function* streamChunks(stream: ReadableStream<Uint8Array>): AsyncIterable<Uint8Array> {
  const reader = stream.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return;
      yield value;
    }
  } finally {
    reader.releaseLock();
  }
}
