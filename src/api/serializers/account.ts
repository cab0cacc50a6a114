import type { Account } from '../../services/identity/account.js';
import { toOne, type ResourceObject } from '../documents.js';
import { serializeUser } from './user.js';

/**
 * `GET /account/details`: the user, or for a team or organization token a service user (no
 * email, `is-service-account: true`) whose `authenticated-resource` is that team or organization.
 */
export function serializeAccount(a: Account): ResourceObject {
  if (a.kind === 'user') {
    const doc = serializeUser(a.user);
    return { ...doc, relationships: { 'authenticated-resource': toOne('users', a.user.id) } };
  }
  return {
    id: a.id,
    type: 'users',
    attributes: {
      username: a.username,
      email: null,
      'avatar-url': 'https://www.gravatar.com/avatar/00000000000000000000000000000000?s=100&d=mm',
      'is-service-account': true,
      'is-site-admin': false,
      'is-admin': false,
      'is-sso-login': false,
      'two-factor': { enabled: false, verified: false },
      'unconfirmed-email': null,
      'v2-only': false,
      permissions: {
        'can-create-organizations': false,
        'can-change-email': false,
        'can-change-username': false,
        'can-manage-user-tokens': false,
        'can-view2fa-settings': false,
        'can-manage-hcp-account': false,
      },
    },
    relationships: { 'authenticated-resource': toOne(a.resource.type, a.resource.id) },
  };
}
