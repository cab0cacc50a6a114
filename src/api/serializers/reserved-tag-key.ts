import type { ReservedTagKey } from '../../domain/organizations/reserved-tag-key.js';
import { API_PREFIX, toOne, type ResourceObject } from '../documents.js';

/**
 * A `reserved-tag-keys` resource. The timestamps come twice: `created-at`/`updated-at` as HCP
 * Terraform documents them, and `created_at`/`updated_at`, the spelling go-tfe reads.
 */
export function serializeReservedTagKey(k: ReservedTagKey): ResourceObject {
  return {
    id: k.id,
    type: 'reserved-tag-keys',
    attributes: {
      key: k.key,
      'disable-overrides': k.disableOverrides,
      'created-at': k.createdAt,
      'updated-at': k.updatedAt,
      created_at: k.createdAt,
      updated_at: k.updatedAt,
    },
    relationships: {
      organization: toOne(
        'organizations',
        k.organizationName,
        `${API_PREFIX}/organizations/${encodeURIComponent(k.organizationName)}`,
      ),
    },
    links: { self: `${API_PREFIX}/reserved-tag-keys/${k.id}` },
  };
}
