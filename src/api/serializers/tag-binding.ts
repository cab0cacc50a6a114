import type { EffectiveTagBinding, TagBinding } from '../../domain/workspaces/tag-binding.js';
import { API_PREFIX, type ResourceObject } from '../documents.js';

/** A key-value tag binding: `tb-…` id, key, value and creation time. */
export function serializeTagBinding(b: TagBinding): ResourceObject {
  return { id: b.id, type: 'tag-bindings', attributes: { key: b.key, value: b.value, 'created-at': b.createdAt } };
}

/**
 * An effective tag binding. Direct bindings carry no `links` member at all (go-tfe checks that);
 * inherited ones carry `links.inherited-from` and the `inherited-from` relationship.
 */
export function serializeEffectiveTagBinding(b: EffectiveTagBinding): ResourceObject {
  const obj: ResourceObject = { id: b.id, type: 'effective-tag-bindings', attributes: { key: b.key, value: b.value } };
  if (b.inheritedFrom) {
    const related = `${API_PREFIX}/projects/${b.inheritedFrom}`;
    obj.links = { 'inherited-from': related };
    obj.relationships = { 'inherited-from': { data: { id: b.inheritedFrom, type: 'projects' }, links: { related } } };
  }
  return obj;
}
