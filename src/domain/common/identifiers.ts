import { Problems } from './errors.js';

/**
 * Reads a top-level `data` array of resource identifiers of one `type`. Only `type` and `id` of
 * each item are read: go-tfe sends full resource objects with zero-valued attributes and empty
 * relationships (reference 3.3). Throws one 422 listing every bad item.
 */
export function parseIdentifiers(body: Record<string, unknown>, type: string): string[] {
  const problems = new Problems();
  const data = body.data;
  if (!Array.isArray(data)) {
    problems.add(
      '/data',
      data === undefined ? 'request body must contain a data member' : `data must be an array of ${type}`,
    );
    problems.throwIfAny();
  }
  const ids: string[] = [];
  (data as unknown[]).forEach((item, i) => {
    const at = `/data/${i}`;
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      problems.add(at, 'each item must be an object');
      return;
    }
    const it = item as Record<string, unknown>;
    if (it.type !== type) problems.add(`${at}/type`, `type must be "${type}"`);
    else if (typeof it.id !== 'string' || it.id === '') problems.add(`${at}/id`, 'id is required');
    else ids.push(it.id);
  });
  problems.throwIfAny();
  return [...new Set(ids)];
}
