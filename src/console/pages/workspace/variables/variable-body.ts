import type { Resource, VariableAttributes } from '../../../jsonapi.js';

/** What the variable form holds. */
export interface VariableFields {
  key: string;
  value: string;
  category: 'terraform' | 'env';
  hcl: boolean;
  sensitive: boolean;
  description: string;
}

/** The form's fields for a new variable, or for editing `v` (a sensitive one's value starts empty). */
export function fieldsOf(v: Resource<VariableAttributes> | null): VariableFields {
  if (!v) return { key: '', value: '', category: 'terraform', hcl: false, sensitive: false, description: '' };
  const a = v.attributes;
  return {
    key: a.key,
    value: a.sensitive ? '' : (a.value ?? ''),
    category: a.category,
    hcl: a.hcl,
    sensitive: a.sensitive,
    description: a.description ?? '',
  };
}

/**
 * The body of `POST /workspaces/:id/vars` (no `editing`) or of its `PATCH` (`editing`). Editing a
 * sensitive variable sends its new value alone: it is write-only, and nothing else of it changes.
 */
export function variableBody(editing: Resource<VariableAttributes> | null, f: VariableFields) {
  if (editing?.attributes.sensitive) return { data: { type: 'vars', id: editing.id, attributes: { value: f.value } } };
  const attributes = {
    key: f.key,
    value: f.value,
    category: f.category,
    hcl: f.hcl,
    sensitive: f.sensitive,
    description: f.description,
  };
  return { data: { type: 'vars', ...(editing ? { id: editing.id } : {}), attributes } };
}
