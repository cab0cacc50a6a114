import * as v from 'valibot';
import { bool, checkAttributes, opt, str } from '../common/attributes.js';
import { Problems } from '../common/errors.js';
import { checkTagBinding, type TagBindingInput } from '../workspaces/tags.js';

/**
 * A tag key an organization reserves: suggested to whoever tags projects and workspaces, and,
 * with `disableOverrides`, a key whose value a workspace may not change from the one its project
 * gives it.
 */
export interface ReservedTagKey {
  id: string;
  organizationName: string;
  key: string;
  disableOverrides: boolean;
  createdAt: string;
  updatedAt: string;
}

export interface ReservedTagKeyInput {
  key?: string;
  disableOverrides?: boolean;
}

const schema = v.looseObject({ key: opt(str()), 'disable-overrides': opt(bool()) });

/**
 * Validates a create (`key` required) or update body. A key follows the rules of tag binding keys
 * (letters, digits and `_ . = + - @ :`, at most 128 characters, not `hc:` or `hcp:`).
 */
export function parseReservedTagKeyInput(attributes: unknown, mode: 'create' | 'update'): ReservedTagKeyInput {
  const a = checkAttributes(schema, attributes);
  const problems = new Problems();
  if (a.key === undefined) {
    if (mode === 'create') problems.add('/data/attributes/key', "Key can't be blank");
  } else checkTagBinding({ key: a.key, value: '' }, '/data', problems);
  problems.throwIfAny();
  return { key: a.key, disableOverrides: a['disable-overrides'] };
}

/**
 * The bindings of a workspace that would change the value its project gives a key whose
 * overrides are disabled, with their index (the workspace may repeat the inherited value).
 */
export function forbiddenOverrides(
  bindings: TagBindingInput[],
  inherited: TagBindingInput[],
  lockedKeys: Set<string>,
): { index: number; key: string }[] {
  const fromProject = new Map(inherited.map((b) => [b.key, b.value]));
  return bindings.flatMap((b, index) => {
    const value = fromProject.get(b.key);
    return lockedKeys.has(b.key) && value !== undefined && value !== b.value ? [{ index, key: b.key }] : [];
  });
}
