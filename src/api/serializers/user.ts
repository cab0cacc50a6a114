import type { TokenInfo } from '../../domain/token.js';
import type { User } from '../../domain/user.js';
import { API_PREFIX, toOne, type ResourceObject } from '../documents.js';

export function serializeUser(u: User): ResourceObject {
  return {
    id: u.id,
    type: 'users',
    attributes: {
      username: u.username,
      email: u.email,
      'is-site-admin': u.isSiteAdmin,
      'is-service-account': false,
      'created-at': u.createdAt,
    },
    links: { self: `${API_PREFIX}/users/${u.id}` },
  };
}

/** An authentication token; `token` (the secret) appears only in the response that created it. */
export function serializeToken(t: TokenInfo): ResourceObject {
  const attributes: Record<string, unknown> = {
    kind: t.kind,
    description: t.description,
    'created-at': t.createdAt,
    'last-used-at': t.lastUsedAt,
  };
  if (t.token !== undefined) attributes.token = t.token;
  const relationships: ResourceObject['relationships'] = {};
  if (t.userId) relationships['created-by'] = toOne('users', t.userId);
  if (t.teamId) relationships.team = toOne('teams', t.teamId);
  return { id: t.id, type: 'authentication-tokens', attributes, relationships };
}
