import type { Context } from 'hono';

/**
 * Reads `filter[tagged][i][key]` and `filter[tagged][i][value]` (brackets may arrive
 * percent-encoded) into one `{key, value}` per index `i`, in index order. Empty parts stay
 * undefined: go-tfe always sends `value`, empty when any value will do.
 */
export function taggedFiltersOf(c: Context): { key?: string; value?: string }[] {
  const byIndex = new Map<number, { key?: string; value?: string }>();
  for (const [name, values] of Object.entries(c.req.queries())) {
    const m = /^filter\[tagged\]\[(\d+)\]\[(key|value)\]$/.exec(name);
    if (!m) continue;
    const value = values[values.length - 1];
    const entry = byIndex.get(Number(m[1])) ?? {};
    if (value !== undefined && value !== '') entry[m[2] as 'key' | 'value'] = value;
    byIndex.set(Number(m[1]), entry);
  }
  return [...byIndex].sort(([a], [b]) => a - b).map(([, f]) => f);
}
