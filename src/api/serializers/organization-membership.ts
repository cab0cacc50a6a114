import type { OrganizationMembership } from '../../domain/organization-membership.js';
import { API_PREFIX, toOne, type ResourceObject } from '../documents.js';

/** An `organization-memberships` document: status and email, the organization, the user and the teams. */
export function serializeMembership(m: OrganizationMembership): ResourceObject {
  return {
    id: m.id,
    type: 'organization-memberships',
    attributes: { status: m.status, email: m.email, 'created-at': m.createdAt },
    relationships: {
      organization: toOne(
        'organizations',
        m.organizationName,
        `${API_PREFIX}/organizations/${encodeURIComponent(m.organizationName)}`,
      ),
      user: toOne('users', m.userId, `${API_PREFIX}/users/${m.userId}`),
      teams: { data: m.teamIds.map((id) => ({ id, type: 'teams' })) },
    },
    links: { self: `${API_PREFIX}/organization-memberships/${m.id}` },
  };
}
