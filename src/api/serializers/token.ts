import type { TokenInfo } from '../../domain/identity/token.js';
import { API_PREFIX, toOne, type ResourceObject } from '../documents.js';

/**
 * A team or organization token as HCP Terraform shows it: `description` (null for a team's legacy
 * token), `created-at`, `last-used-at`, `expired-at` (null: never), and `token` (the secret) only
 * in the response that created it. `created-by` names the user, team or organization whose token
 * made it; a token made by a site administrator that is no user names the token's organization.
 */
export function serializeAuthenticationToken(t: TokenInfo): ResourceObject {
  const attributes: Record<string, unknown> = {
    kind: t.kind,
    description: t.description,
    'created-at': t.createdAt,
    'last-used-at': t.lastUsedAt,
    'expired-at': t.expiredAt ?? null,
    token: t.token ?? null,
  };
  const relationships: ResourceObject['relationships'] = {};
  // Without a recorded creator: a user's token is its user's, else the token's organization.
  const creator =
    t.createdBy ??
    (t.userId
      ? { type: 'users', id: t.userId }
      : t.organizationName
        ? { type: 'organizations', id: t.organizationName }
        : null);
  relationships['created-by'] = { data: creator ? { type: creator.type, id: creator.id } : null };
  if (t.teamId) relationships.team = toOne('teams', t.teamId, `${API_PREFIX}/teams/${t.teamId}`);
  if (t.kind !== 'team' && t.organizationName)
    relationships.organization = toOne(
      'organizations',
      t.organizationName,
      `${API_PREFIX}/organizations/${encodeURIComponent(t.organizationName)}`,
    );
  return {
    id: t.id,
    type: 'authentication-tokens',
    attributes,
    relationships,
    links: { self: `${API_PREFIX}/authentication-tokens/${t.id}` },
  };
}
