import type { FlatTag } from '../../domain/workspaces/flat-tags.js';
import type { RetentionPolicy } from '../../domain/instance/retention.js';
import type { SshKey } from '../../domain/organizations/ssh-key.js';
import { API_PREFIX, toOne, type ResourceObject } from '../documents.js';

/** An `ssh-keys` resource: the name only; the key text is write-only and never sent back. */
export function serializeSshKey(k: SshKey): ResourceObject {
  return {
    id: k.id,
    type: 'ssh-keys',
    attributes: { name: k.name, 'created-at': k.createdAt, 'updated-at': k.updatedAt },
    relationships: {
      organization: toOne(
        'organizations',
        k.organizationName,
        `${API_PREFIX}/organizations/${encodeURIComponent(k.organizationName)}`,
      ),
    },
    links: { self: `${API_PREFIX}/ssh-keys/${k.id}` },
  };
}

/** A flat `tags` resource (reference 7.1), with `instance-count`. */
export function serializeFlatTag(t: FlatTag): ResourceObject {
  return {
    id: t.id,
    type: 'tags',
    attributes: { name: t.name, 'created-at': t.createdAt, 'instance-count': t.instanceCount },
    relationships: { organization: { data: { id: t.organizationName, type: 'organizations' } } },
  };
}

/** A data retention policy (reference 10.1); its type is the policy's kind. */
export function serializeRetentionPolicy(p: RetentionPolicy): ResourceObject {
  const attributes: Record<string, unknown> = {};
  if (p.deleteOlderThanNDays !== null) attributes['delete-older-than-n-days'] = p.deleteOlderThanNDays;
  return {
    id: p.id,
    type: p.type,
    attributes,
    relationships: { target: { data: p.target ? { id: p.target.id, type: p.target.type } : null } },
  };
}
