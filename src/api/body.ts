import type { IncomingMessage } from 'node:http';
import type { Context } from 'hono';
import { BerthError, badRequest, unsupportedMediaType } from '../domain/common/errors.js';
import { incomingOf, requestHeader } from './node-headers.js';

export const BODY_LIMIT = 1024 * 1024;

const ACCEPTED = ['application/vnd.api+json', 'application/json'];

function invalidDocument(detail: string, pointer: string): BerthError {
  return new BerthError([{ status: 422, title: 'invalid attribute', detail, pointer }]);
}

/**
 * Reads the request body as a JSON object. Accepts `application/vnd.api+json` and
 * `application/json` (or no Content-Type); malformed JSON is a 400. With `optional`, an empty body
 * gives `null` instead of an error.
 */
export async function readJson(
  c: Context,
  options: { optional?: boolean } = {},
): Promise<Record<string, unknown> | null> {
  const text = await bodyText(c);
  if (text.trim() === '') {
    if (options.optional) return null;
    throw badRequest('request body is empty; send a JSON:API document with a data member');
  }
  const type = requestHeader(c, 'content-type');
  if (type) {
    const media = type.split(';')[0].trim().toLowerCase();
    if (!ACCEPTED.includes(media)) {
      throw unsupportedMediaType(`Content-Type must be application/vnd.api+json or application/json, not ${media}`);
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch (err) {
    throw badRequest(`malformed JSON: ${(err as Error).message}`);
  }
  if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) {
    throw badRequest('request body must be a JSON object');
  }
  return parsed as Record<string, unknown>;
}

const utf8 = new TextDecoder();

/**
 * The request body as text, as `c.req.text()` gives it (UTF-8, a leading byte order mark
 * dropped). Behind `serve`, an HTTP/1.x body framed by Content-Length is read straight from node's
 * request: `c.req.text()` makes the HTTP adapter build a Fetch API request, its headers, an abort
 * controller and a web stream over node's request, which was a large share of a small write's
 * cost. By then the body limit (body-limit.ts) has compared the declared length with the limit,
 * and node's parser delivers exactly that many bytes. Without Content-Length nor
 * Transfer-Encoding, an HTTP/1.x body is empty. Everything else (chunked bodies, HTTP/2, the app
 * in-process) is read through hono, under hono's body limit.
 */
function bodyText(c: Context): Promise<string> {
  // Read once: a second reader of the same request gets the same text, as from hono.
  let text = bodyTexts.get(c);
  if (!text) bodyTexts.set(c, (text = readBodyText(c)));
  return text;
}

const bodyTexts = new WeakMap<Context, Promise<string>>();

function readBodyText(c: Context): Promise<string> {
  const incoming = incomingOf(c);
  if (
    !incoming ||
    incoming.httpVersionMajor !== 1 ||
    'transfer-encoding' in incoming.headers ||
    incoming.readableDidRead ||
    incoming.readableEnded
  )
    return c.req.text();
  if (incoming.headers['content-length'] === undefined) return Promise.resolve('');
  return readIncoming(incoming).then((bytes) => utf8.decode(bytes));
}

/** All of node's request body; rejects when the client goes before sending all of it (client-abort.ts). */
function readIncoming(incoming: IncomingMessage): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      chunks.push(chunk);
      size += chunk.length;
    };
    const onEnd = () => {
      done();
      resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks, size));
    };
    const onError = (err: Error) => {
      done();
      reject(err);
    };
    const onClose = () => {
      done();
      if (incoming.complete) resolve(Buffer.concat(chunks, size));
      else reject(new Error('the client closed the connection before the request body was complete'));
    };
    const done = () => {
      incoming.off('data', onData);
      incoming.off('end', onEnd);
      incoming.off('error', onError);
      incoming.off('close', onClose);
    };
    incoming.on('data', onData);
    incoming.on('end', onEnd);
    incoming.on('error', onError);
    incoming.on('close', onClose);
  });
}

export interface ResourceInput {
  id?: unknown;
  type?: unknown;
  attributes: Record<string, unknown>;
  relationships: Record<string, unknown>;
}

function objectOr(value: unknown, pointer: string, what: string): Record<string, unknown> {
  if (value === undefined || value === null) return {};
  if (typeof value !== 'object' || Array.isArray(value)) throw invalidDocument(`${what} must be an object`, pointer);
  return value as Record<string, unknown>;
}

/**
 * Reads a single-resource document (`{"data": {...}}`) whose `data.type` must be `type` (or, with
 * `untyped`, empty: go-tfe sends `""` for option structs that name no resource type).
 */
export async function readResource(
  c: Context,
  type: string,
  options: { untyped?: boolean } = {},
): Promise<ResourceInput> {
  const body = await readJson(c);
  const data = body!.data;
  if (data === undefined) throw invalidDocument('request body must contain a data member', '/data');
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    throw invalidDocument('data must be an object', '/data');
  const d = data as Record<string, unknown>;
  if (d.type !== type && !(options.untyped && (d.type === '' || d.type === undefined)))
    throw invalidDocument(`type must be "${type}"`, '/data/type');
  return {
    id: d.id,
    type: d.type,
    attributes: objectOr(d.attributes, '/data/attributes', 'attributes'),
    relationships: objectOr(d.relationships, '/data/relationships', 'relationships'),
  };
}
