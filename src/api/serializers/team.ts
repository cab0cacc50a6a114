import type { Team } from '../../domain/team.js';
import { API_PREFIX, toOne, type ResourceObject } from '../documents.js';

export function serializeTeam(t: Team): ResourceObject {
  return {
    id: t.id,
    type: 'teams',
    attributes: {
      name: t.name,
      visibility: t.visibility,
      'users-count': t.userIds.length,
      'is-owners': t.isOwners,
      'created-at': t.createdAt,
      'organization-access': {
        'manage-projects': t.organizationAccess.manageProjects,
        'manage-workspaces': t.organizationAccess.manageWorkspaces,
        'read-projects': t.organizationAccess.readProjects,
        'read-workspaces': t.organizationAccess.readWorkspaces,
      },
      permissions: {
        'can-update-membership': t.permissions.canUpdateMembership,
        'can-destroy': t.permissions.canDestroy,
        'can-update-organization-access': t.permissions.canUpdateOrganizationAccess,
        'can-update-api-token': t.permissions.canUpdateApiToken,
      },
    },
    relationships: {
      organization: toOne(
        'organizations',
        t.organizationName,
        `${API_PREFIX}/organizations/${encodeURIComponent(t.organizationName)}`,
      ),
      users: { data: t.userIds.map((id) => ({ id, type: 'users' })) },
    },
    links: { self: `${API_PREFIX}/teams/${t.id}` },
    meta: { usernames: t.usernames },
  };
}
