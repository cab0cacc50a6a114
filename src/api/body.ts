import type { Context } from 'hono';
import { BerthError, badRequest, unsupportedMediaType } from '../domain/errors.js';

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
  const text = await c.req.text();
  if (text.trim() === '') {
    if (options.optional) return null;
    throw badRequest('request body is empty; send a JSON:API document with a data member');
  }
  const type = c.req.header('content-type');
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
 * Reads a single-resource document (`{"data": {...}}`) whose `data.type` must be `type`.
 */
export async function readResource(c: Context, type: string): Promise<ResourceInput> {
  const body = await readJson(c);
  const data = body!.data;
  if (data === undefined) throw invalidDocument('request body must contain a data member', '/data');
  if (data === null || typeof data !== 'object' || Array.isArray(data))
    throw invalidDocument('data must be an object', '/data');
  const d = data as Record<string, unknown>;
  if (d.type !== type) throw invalidDocument(`type must be "${type}"`, '/data/type');
  return {
    id: d.id,
    type: d.type,
    attributes: objectOr(d.attributes, '/data/attributes', 'attributes'),
    relationships: objectOr(d.relationships, '/data/relationships', 'relationships'),
  };
}
