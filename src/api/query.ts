import type { Context } from 'hono';
import { badRequest } from '../domain/common/errors.js';
import { parsePage, type PageRequest } from '../domain/common/paging.js';

/** `page[number]` and `page[size]` of the request (brackets may arrive percent-encoded). */
export function pageOf(c: Context): PageRequest {
  return parsePage(c.req.query('page[number]'), c.req.query('page[size]'));
}

/**
 * Parses `include`: a comma-separated list, accepting `-` and `_` spellings alike. Returns the
 * values normalised to underscores; any value not in `allowed` is a 400 `Invalid include parameter`.
 */
export function includesOf(c: Context, allowed: readonly string[]): Set<string> {
  const raw = c.req.queries('include') ?? [];
  const out = new Set<string>();
  for (const part of raw.flatMap((r) => r.split(','))) {
    const value = part.trim().replace(/-/g, '_');
    if (value === '') continue;
    if (!allowed.includes(value)) throw badRequest('Invalid include parameter', { parameter: 'include' });
    out.add(value);
  }
  return out;
}

/** `filter[tagged][i][key]` and `filter[tagged][i][value]`, known to both workspace and project lists. */
export const TAGGED_FILTER = /^filter\[tagged\]\[\d+\]\[(key|value)\]$/;

/**
 * Refuses any `filter[...]` or `search[...]` parameter that the list does not know (`known`): one
 * silently ignored because of a typo would answer with the whole unfiltered list, which a bulk lock
 * or move would then act on. A 400 that names the parameter.
 */
export function rejectUnknownFilters(c: Context, known: readonly RegExp[]): void {
  for (const name of Object.keys(c.req.queries())) {
    if (!/^(filter|search)\[/.test(name) || known.some((k) => k.test(name))) continue;
    throw badRequest(`unknown or malformed query parameter ${name}`, { parameter: name });
  }
}

/** A query parameter, or undefined when absent or empty. */
export function queryParam(c: Context, name: string): string | undefined {
  const value = c.req.query(name);
  return value === undefined || value === '' ? undefined : value;
}
