import type { AuditEvent } from '../../domain/audit/audit.js';
import { API_PREFIX, toOne, type ResourceObject } from '../documents.js';

/** An `audit-events` resource (see docs/api.md "Audit trail"). */
export function serializeAuditEvent(e: AuditEvent): ResourceObject {
  return {
    id: e.id,
    type: 'audit-events',
    attributes: {
      timestamp: e.time,
      action: e.action,
      'actor-kind': e.actor.kind,
      'actor-id': e.actor.id,
      'actor-token-id': e.actor.tokenId,
      'actor-name': e.actor.name,
      'target-type': e.target.type,
      'target-id': e.target.id,
      'target-name': e.target.name,
      'organization-name': e.organizationName,
      'workspace-id': e.workspaceId,
      'request-id': e.requestId,
    },
    relationships: {
      organization: toOne(
        'organizations',
        e.organizationName,
        e.organizationName ? `${API_PREFIX}/organizations/${encodeURIComponent(e.organizationName)}` : undefined,
      ),
    },
  };
}
