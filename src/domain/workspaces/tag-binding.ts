import { createHash } from 'node:crypto';

/** A stored key-value tag binding. */
export interface TagBinding {
  id: string;
  key: string;
  value: string;
  createdAt: string;
}

/**
 * A binding as `effective-tag-bindings` lists it. Ids are 16 hex characters without a prefix (as
 * HCP Terraform's are), derived from the binding's own id so that they are stable across reads.
 * `inheritedFrom` names the project a workspace inherits the binding from (null when direct).
 */
export interface EffectiveTagBinding {
  id: string;
  key: string;
  value: string;
  inheritedFrom: string | null;
}

export function effectiveBindingId(bindingId: string): string {
  return createHash('sha256').update(bindingId, 'utf8').digest('hex').slice(0, 16);
}

/** A direct binding seen as an effective one. */
export function directEffective(b: TagBinding): EffectiveTagBinding {
  return { id: effectiveBindingId(b.id), key: b.key, value: b.value, inheritedFrom: null };
}
