import { Problems } from '../common/errors.js';

/** A key-value tag binding as a request gives it. `value` may be empty. */
export interface TagBindingInput {
  key: string;
  value: string;
}

export const MAX_DIRECT_BINDINGS = 10;
export const MAX_KEY_LENGTH = 128;
export const MAX_VALUE_LENGTH = 256;
export const RESERVED_KEY_PREFIXES = ['hc:', 'hcp:'];

/** Letters, digits and `_ . = + - @ :` (the spec's character set for keys and values). */
const TAG_CHARS = /^[A-Za-z0-9_.=+\-@:]*$/;

export const TOO_MANY_BINDINGS_DETAIL = `Tag bindings cannot exceed ${MAX_DIRECT_BINDINGS} bindings per resource`;

/** Checks one key and value; problems are reported at `pointer` (the binding's object). */
export function checkTagBinding(binding: TagBindingInput, pointer: string, problems: Problems): void {
  const { key, value } = binding;
  if (key.length === 0) problems.add(`${pointer}/attributes/key`, "Key can't be blank");
  else if (key.length > MAX_KEY_LENGTH)
    problems.add(`${pointer}/attributes/key`, `Key is too long (maximum is ${MAX_KEY_LENGTH} characters)`);
  else if (!TAG_CHARS.test(key))
    problems.add(`${pointer}/attributes/key`, 'Key is invalid: only letters, numbers and _ . = + - @ : are allowed');
  else if (RESERVED_KEY_PREFIXES.some((p) => key.toLowerCase().startsWith(p))) {
    problems.add(
      `${pointer}/attributes/key`,
      `Key is invalid: the prefixes ${RESERVED_KEY_PREFIXES.join(' and ')} are reserved`,
    );
  }
  if (value.length > MAX_VALUE_LENGTH)
    problems.add(`${pointer}/attributes/value`, `Value is too long (maximum is ${MAX_VALUE_LENGTH} characters)`);
  else if (!TAG_CHARS.test(value))
    problems.add(
      `${pointer}/attributes/value`,
      'Value is invalid: only letters, numbers and _ . = + - @ : are allowed',
    );
}

/**
 * Reads a `data` array of `{type: "tag-bindings", attributes: {key, value}}` items (from a
 * relationship or a top-level body). Items may carry more than that (real clients send extra
 * members); only type, key and value are read. Throws one 422 listing every problem.
 */
export function parseTagBindings(data: unknown, pointer: string): TagBindingInput[] {
  const problems = new Problems();
  if (!Array.isArray(data)) {
    problems.add(pointer, 'Tag bindings must be an array');
    problems.throwIfAny();
  }
  const out: TagBindingInput[] = [];
  const seen = new Set<string>();
  (data as unknown[]).forEach((item, i) => {
    const at = `${pointer}/${i}`;
    if (item === null || typeof item !== 'object' || Array.isArray(item)) {
      problems.add(at, 'Tag binding must be an object');
      return;
    }
    const { type, attributes } = item as { type?: unknown; attributes?: unknown };
    if (type !== 'tag-bindings') problems.add(`${at}/type`, 'Type must be "tag-bindings"');
    const attrs = (attributes && typeof attributes === 'object' ? attributes : {}) as {
      key?: unknown;
      value?: unknown;
    };
    if (typeof attrs.key !== 'string') {
      problems.add(`${at}/attributes/key`, attrs.key === undefined ? "Key can't be blank" : 'Key must be a string');
      return;
    }
    if (attrs.value !== undefined && attrs.value !== null && typeof attrs.value !== 'string') {
      problems.add(`${at}/attributes/value`, 'Value must be a string');
      return;
    }
    const binding = { key: attrs.key, value: typeof attrs.value === 'string' ? attrs.value : '' };
    checkTagBinding(binding, at, problems);
    if (seen.has(binding.key)) problems.add(`${at}/attributes/key`, 'Key has already been taken');
    seen.add(binding.key);
    out.push(binding);
  });
  problems.throwIfAny();
  return out;
}

/** The limit of direct bindings, checked after merging or replacing. */
export function checkBindingCount(count: number, pointer: string): void {
  if (count > MAX_DIRECT_BINDINGS) {
    const problems = new Problems();
    problems.add(pointer, TOO_MANY_BINDINGS_DETAIL);
    problems.throwIfAny();
  }
}

/** Adds or updates by key, never removes (the additive PATCH). Order: existing first, new last. */
/**
 * The bindings of `all` whose keys `request` named, in the order it named them: what an additive
 * `PATCH .../tag-bindings` answers (HCP Terraform's documented answer lists the request's keys).
 */
export function bindingsNamed<B extends { key: string }>(all: B[], request: { key: string }[]): B[] {
  const byKey = new Map(all.map((b) => [b.key, b]));
  const keys = [...new Set(request.map((b) => b.key))];
  return keys.map((k) => byKey.get(k)).filter((b): b is B => b !== undefined);
}

export function mergeBindings(existing: TagBindingInput[], incoming: TagBindingInput[]): TagBindingInput[] {
  const merged = new Map(existing.map((b) => [b.key, b.value]));
  for (const b of incoming) merged.set(b.key, b.value);
  return [...merged].map(([key, value]) => ({ key, value }));
}
