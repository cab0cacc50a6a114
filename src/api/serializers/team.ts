import { ORGANIZATION_ACCESS_FLAGS, type Team, type TeamName } from '../../domain/teams/team.js';
import { API_PREFIX, toOne, type ResourceObject } from '../documents.js';

export function serializeTeam(t: Team): ResourceObject {
  return {
    id: t.id,
    type: 'teams',
    attributes: {
      name: t.name,
      visibility: t.visibility,
      'sso-team-id': t.ssoTeamId,
      'allow-member-token-management': t.allowMemberTokenManagement,
      'users-count': t.userIds.length,
      'is-owners': t.isOwners,
      'created-at': t.createdAt,
      'organization-access': Object.fromEntries(ORGANIZATION_ACCESS_FLAGS.map((f) => [f, t.organizationAccess[f]])),
      permissions: {
        'can-update-membership': t.permissions.canUpdateMembership,
        'can-destroy': t.permissions.canDestroy,
        'can-update-organization-access': t.permissions.canUpdateOrganizationAccess,
        'can-update-api-token': t.permissions.canUpdateApiToken,
        'can-update-visibility': t.permissions.canUpdateVisibility,
        'can-update-name': t.permissions.canUpdateName,
      },
    },
    relationships: {
      organization: toOne(
        'organizations',
        t.organizationName,
        `${API_PREFIX}/organizations/${encodeURIComponent(t.organizationName)}`,
      ),
      users: { data: t.userIds.map((id) => ({ id, type: 'users' })) },
      'authentication-tokens': { links: { related: `${API_PREFIX}/teams/${t.id}/authentication-tokens` } },
    },
    links: { self: `${API_PREFIX}/teams/${t.id}` },
    meta: { usernames: t.usernames },
  };
}

/** The team's members as `included` users (`include=users`): id and username. */
export function serializeTeamUsers(t: Team): ResourceObject[] {
  return t.userIds.map((id, i) => ({
    id,
    type: 'users',
    attributes: { username: t.usernames[i] },
    links: { self: `${API_PREFIX}/users/${id}` },
  }));
}

/** A team the caller may not see, named where it holds something the caller reads (a workspace lock). */
export function serializeTeamName(t: TeamName): ResourceObject {
  return {
    id: t.id,
    type: 'teams',
    attributes: { name: t.name },
    relationships: {
      organization: toOne(
        'organizations',
        t.organizationName,
        `${API_PREFIX}/organizations/${encodeURIComponent(t.organizationName)}`,
      ),
    },
    links: { self: `${API_PREFIX}/teams/${t.id}` },
  };
}
