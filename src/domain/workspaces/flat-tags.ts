import { Problems } from '../common/errors.js';
import { MAX_FLAT_TAGS_PER_WORKSPACE } from '../common/limits.js';

/** A flat (legacy) string tag of an organization. */
export interface FlatTag {
  id: string;
  organizationName: string;
  name: string;
  createdAt: string;
  /** How many workspaces carry it. */
  instanceCount: number;
}

/** One item of a `relationships/tags` body: by id, or by name (already lower-cased). */
export type FlatTagRef = { id: string } | { name: string };

export const MAX_FLAT_TAG_LENGTH = 255;
export const TOO_MANY_FLAT_TAGS_DETAIL = `A workspace carries at most ${MAX_FLAT_TAGS_PER_WORKSPACE} tags`;
const FLAT_TAG = /^[a-z0-9_:-]+$/;

/** Lower-cases and checks a tag name; reports at `pointer`. */
export function normaliseFlatTag(name: string, pointer: string, problems: Problems): string | null {
  const lower = name.trim().toLowerCase();
  if (lower === '') problems.add(pointer, "Name can't be blank");
  else if (lower.length > MAX_FLAT_TAG_LENGTH)
    problems.add(pointer, `Name is too long (maximum is ${MAX_FLAT_TAG_LENGTH} characters)`);
  else if (!FLAT_TAG.test(lower))
    problems.add(pointer, 'Name is invalid: only letters, numbers, "-", "_" and ":" are allowed');
  else return lower;
  return null;
}

/**
 * Reads `{"data":[{"type":"tags","id":"tag-…"} | {"type":"tags","attributes":{"name":"…"}}]}`.
 * Items may carry more members (real clients send them); only type, id and name are read.
 * An item with an id is taken by id. Throws one 422 listing every problem.
 */
export function parseFlatTagRefs(data: unknown, pointer = '/data'): FlatTagRef[] {
  const problems = new Problems();
  if (!Array.isArray(data)) {
    problems.add(pointer, 'data must be an array of tags');
    problems.throwIfAny();
  }
  const out: FlatTagRef[] = [];
  (data as unknown[]).forEach((item, i) => {
    const at = `${pointer}/${i}`;
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      problems.add(at, 'each item must be an object');
      return;
    }
    const it = item as Record<string, unknown>;
    if (it.type !== 'tags') {
      problems.add(`${at}/type`, 'type must be "tags"');
      return;
    }
    if (typeof it.id === 'string' && it.id !== '') {
      out.push({ id: it.id });
      return;
    }
    const attrs = it.attributes as Record<string, unknown> | undefined;
    const name = attrs && typeof attrs === 'object' ? attrs.name : undefined;
    if (typeof name !== 'string') {
      problems.add(`${at}/attributes/name`, 'each tag needs an id or attributes.name');
      return;
    }
    const lower = normaliseFlatTag(name, `${at}/attributes/name`, problems);
    if (lower !== null) out.push({ name: lower });
  });
  problems.throwIfAny();
  return out;
}
