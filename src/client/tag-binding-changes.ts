import { BerthError } from '../domain/common/errors.js';
import type { Resource } from './jsonapi.js';
import type { TagPair } from './projects.js';
import type { TagBindingAttributes } from './resources.js';

/** What a command asks of a resource's own tag bindings: add or update some, remove some, or clear. */
export interface TagBindingChange {
  set?: TagPair[];
  remove?: string[];
  clear?: boolean;
}

/** The bindings after the change, and the bindings the change removed. */
export interface TagBindingPlan {
  next: TagPair[];
  removed: TagPair[];
}

const pair = (b: Resource<TagBindingAttributes>): TagPair => ({
  key: b.attributes.key,
  value: b.attributes.value ?? '',
});

/**
 * Applies a change to the current own bindings: `set` adds keys or changes their values and never
 * removes, `remove` names keys that must exist (a 404 naming the keys there are, otherwise), and
 * `clear` removes them all. The result is the whole set, for the API's replacing endpoints (as
 * HCP Terraform removes a binding: by sending the set without it).
 */
export function planTagBindings(
  current: Resource<TagBindingAttributes>[],
  change: TagBindingChange,
  owner: string,
): TagBindingPlan {
  const before = current.map(pair);
  if (change.clear) return { next: [], removed: before };
  const remove = new Set(change.remove ?? []);
  const unknown = [...remove].filter((k) => !before.some((b) => b.key === k));
  if (unknown.length > 0) {
    const have = before.map((b) => b.key);
    throw new BerthError([
      {
        status: 404,
        title: 'not found',
        detail: `${owner} has no tag ${unknown.join(', ')} of its own (${have.length > 0 ? `its tags: ${have.join(', ')}` : 'it has none'})`,
      },
    ]);
  }
  const next = before.filter((b) => !remove.has(b.key));
  for (const t of change.set ?? []) {
    const existing = next.find((b) => b.key === t.key);
    if (existing) existing.value = t.value;
    else next.push({ ...t });
  }
  return { next, removed: before.filter((b) => remove.has(b.key)) };
}

/** `env=prod, team=web` (a key alone when the value is empty). */
export function formatTagPairs(tags: TagPair[]): string {
  return tags.map((t) => (t.value === '' ? t.key : `${t.key}=${t.value}`)).join(', ');
}
