import { findIncluded, related, type Resource } from '../jsonapi.js';

/** Who holds a workspace's lock, from its `locked-by` relationship and `include=locked_by`. */
export function lockHolderName(ws: Resource<unknown>, included: Resource[] | undefined): string {
  const ref = related(ws, 'locked-by');
  if (!ref) return 'unknown';
  const holder = findIncluded(included, ref);
  const attrs = (holder?.attributes ?? {}) as { username?: string; name?: string };
  if (ref.type === 'users') return attrs.username ?? ref.id;
  if (ref.type === 'teams') return `team ${attrs.name ?? ref.id}`;
  if (ref.type === 'runs') return `run ${ref.id}`;
  return ref.id;
}
