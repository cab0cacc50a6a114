import type { Context } from 'hono';
import { TAGGED_FILTER } from './query.js';

/**
 * Reads `filter[tagged][i][key]` and `filter[tagged][i][value]` (brackets may arrive
 * percent-encoded) into one `{key, value}` per index `i`, in index order. Empty parts stay
 * undefined: go-tfe always sends `value`, empty when any value will do.
 */
export function taggedFiltersOf(c: Context): { key?: string; value?: string }[] {
  const byIndex = new Map<number, { key?: string; value?: string }>();
  for (const [name, values] of Object.entries(c.req.queries())) {
    if (!TAGGED_FILTER.test(name)) continue;
    const [, index, part] = /\[(\d+)\]\[(key|value)\]$/.exec(name)!;
    const value = values[values.length - 1];
    const entry = byIndex.get(Number(index)) ?? {};
    if (value !== undefined && value !== '') entry[part as 'key' | 'value'] = value;
    byIndex.set(Number(index), entry);
  }
  return [...byIndex].sort(([a], [b]) => a - b).map(([, f]) => f);
}
