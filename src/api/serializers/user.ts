import { createHash } from 'node:crypto';
import type { User, UserView } from '../../domain/identity/user.js';
import { API_PREFIX, type ResourceObject } from '../documents.js';

/** A Gravatar address for the email, as HCP Terraform shows (a generic image when none is set). */
export function avatarUrl(email: string): string {
  const hash = createHash('sha256').update(email.trim().toLowerCase(), 'utf8').digest('hex');
  return `https://www.gravatar.com/avatar/${hash}?s=100&d=mm`;
}

/**
 * A user, with the attributes go-tfe's `User` reads. berth has no passwords, two-factor
 * authentication or single sign-on: those attributes are constant.
 */
export function serializeUser(u: User): ResourceObject {
  return {
    id: u.id,
    type: 'users',
    attributes: {
      username: u.username,
      email: u.email,
      'avatar-url': avatarUrl(u.email),
      'is-site-admin': u.isSiteAdmin,
      'is-admin': u.isSiteAdmin,
      'is-service-account': false,
      'is-sso-login': false,
      'two-factor': { enabled: false, verified: false },
      'unconfirmed-email': null,
      'v2-only': false,
      'created-at': u.createdAt,
      permissions: {
        'can-create-organizations': true,
        'can-change-email': true,
        'can-change-username': true,
        'can-manage-user-tokens': true,
        'can-view2fa-settings': false,
        'can-manage-hcp-account': false,
      },
    },
    links: { self: `${API_PREFIX}/users/${u.id}` },
  };
}

/**
 * A user's public face, for callers who may not see its details (HCP Terraform's user objects
 * carry nothing that identifies a person but the username and avatar): no email, no account settings.
 */
export function serializePublicUser(u: User): ResourceObject {
  return {
    id: u.id,
    type: 'users',
    attributes: {
      username: u.username,
      'avatar-url': avatarUrl(u.email),
      'is-service-account': false,
      'v2-only': false,
    },
    links: { self: `${API_PREFIX}/users/${u.id}` },
  };
}

/** A user as the caller may see it: everything, or its public face. */
export function serializeUserView(v: UserView): ResourceObject {
  return v.details ? serializeUser(v.user) : serializePublicUser(v.user);
}
