import { BerthError } from '../domain/common/errors.js';

/** Edit distance (Levenshtein), for "did you mean" suggestions. */
export function editDistance(a: string, b: string): number {
  const prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    let diag = prev[0];
    prev[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const up = prev[j];
      prev[j] = Math.min(prev[j] + 1, prev[j - 1] + 1, diag + (a[i - 1] === b[j - 1] ? 0 : 1));
      diag = up;
    }
  }
  return prev[b.length];
}

/** The candidates closest to `name` (case-insensitive), at most `limit`, nearest first. */
export function closeMatches(name: string, candidates: string[], limit = 5): string[] {
  const wanted = name.toLowerCase();
  const threshold = Math.max(2, Math.floor(wanted.length / 3));
  return candidates
    .map((c) => ({
      c,
      d:
        c.toLowerCase().includes(wanted) || wanted.includes(c.toLowerCase())
          ? 1
          : editDistance(wanted, c.toLowerCase()),
    }))
    .filter((x) => x.d <= threshold)
    .sort((x, y) => x.d - y.d || x.c.localeCompare(y.c))
    .slice(0, limit)
    .map((x) => x.c);
}

/** A 404 for `what` that lists the close matches, if any. */
export function notFoundWithSuggestions(
  what: string,
  name: string,
  organization: string,
  candidates: string[],
): BerthError {
  const close = closeMatches(name, candidates);
  const hint = close.length > 0 ? `; did you mean ${close.map((c) => `"${c}"`).join(', ')}?` : '';
  return new BerthError([
    { status: 404, title: 'not found', detail: `${what} "${name}" not found in organization ${organization}${hint}` },
  ]);
}
