import type { Context } from 'hono';
import type { ContentfulStatusCode } from 'hono/utils/http-status';
import { BerthError, type ErrorItem } from '../domain/common/errors.js';
import { JSONAPI, sendDocument } from './documents.js';

function toErrorObject(item: ErrorItem): Record<string, unknown> {
  const obj: Record<string, unknown> = { status: String(item.status), title: item.title };
  if (item.detail !== undefined) obj.detail = item.detail;
  if (item.pointer) obj.source = { pointer: item.pointer };
  else if (item.parameter) obj.source = { parameter: item.parameter };
  return obj;
}

/** The one place errors become JSON:API error documents (`status` always a string). */
export function sendError(c: Context, err: BerthError): Response {
  return sendDocument(c, { errors: err.items.map(toErrorObject) }, err.status as ContentfulStatusCode, err.headers);
}

/** Anything that is not a BerthError: logged by the caller, answered with a generic 500. */
export function internalError(): BerthError {
  return new BerthError([
    { status: 500, title: 'internal server error', detail: 'An unexpected error occurred; it has been logged.' },
  ]);
}

/** The same error document as a standalone Response, for answers given outside the app (serve's limits). */
export function errorResponse(err: BerthError, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify({ errors: err.items.map(toErrorObject) }), {
    status: err.status,
    headers: { 'Content-Type': JSONAPI, ...err.headers, ...headers },
  });
}
