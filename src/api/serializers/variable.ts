import type { Variable } from '../../domain/variables/variable.js';
import { API_PREFIX, type ResourceObject } from '../documents.js';

/**
 * A `vars` document (HCP Terraform's shape). A sensitive variable's `value` is null: the value is
 * write-only, and the domain variable does not even carry it.
 */
export function serializeVariable(v: Variable): ResourceObject {
  const workspace = `${API_PREFIX}/organizations/${encodeURIComponent(v.organizationName)}/workspaces/${encodeURIComponent(v.workspaceName)}`;
  return {
    id: v.id,
    type: 'vars',
    attributes: {
      key: v.key,
      value: v.sensitive ? null : v.value,
      description: v.description,
      sensitive: v.sensitive,
      category: v.category,
      hcl: v.hcl,
      'version-id': v.versionId,
      'created-at': v.createdAt,
    },
    relationships: {
      configurable: { data: { id: v.workspaceId, type: 'workspaces' }, links: { related: workspace } },
    },
    links: { self: `${API_PREFIX}/workspaces/${v.workspaceId}/vars/${v.id}` },
  };
}
