import type { MemberUser, OrganizationMembership } from '../../domain/organizations/organization-membership.js';
import { API_PREFIX, toOne, type ResourceObject } from '../documents.js';
import { avatarUrl, serializePublicUser, serializeUser } from './user.js';

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

/**
 * The user of a membership, as its reader may see it (services/organizations/organization-memberships.ts,
 * `membershipIncludes`). An invitee is the email the invitation was sent to and nothing else:
 * `username` "" (HCP Terraform's invited people have none to show), no site-administrator flag,
 * no dates or settings, the same whether the email has an account or not.
 */
export function serializeMemberUser(u: MemberUser): ResourceObject {
  if (u.kind === 'account') {
    if (u.view.details) return serializeUser(u.view.user);
    const doc = serializePublicUser(u.view.user);
    return { ...doc, attributes: { ...doc.attributes, email: u.email } };
  }
  return {
    id: u.id,
    type: 'users',
    attributes: {
      username: '',
      email: u.email,
      'avatar-url': avatarUrl(u.email),
      'is-service-account': false,
      'v2-only': false,
    },
    links: { self: `${API_PREFIX}/users/${u.id}` },
  };
}
