import type { AgentPool } from '../../domain/agents/agent-pool.js';
import type { OAuthToken } from '../../domain/organizations/oauth-token.js';
import { API_PREFIX, toOne, type ResourceObject } from '../documents.js';

export function serializeAgentPool(p: AgentPool): ResourceObject {
  return {
    id: p.id,
    type: 'agent-pools',
    attributes: {
      name: p.name,
      'created-at': p.createdAt,
      'organization-scoped': p.organizationScoped,
      'agent-count': p.agentCount,
    },
    relationships: {
      organization: toOne(
        'organizations',
        p.organizationName,
        `${API_PREFIX}/organizations/${encodeURIComponent(p.organizationName)}`,
      ),
      workspaces: { data: p.workspaceIds.map((id) => ({ id, type: 'workspaces' })) },
      'allowed-workspaces': { data: p.allowedWorkspaceIds.map((id) => ({ id, type: 'workspaces' })) },
    },
    links: { self: `${API_PREFIX}/agent-pools/${p.id}` },
  };
}

export function serializeOAuthToken(t: OAuthToken): ResourceObject {
  return {
    id: t.id,
    type: 'oauth-tokens',
    attributes: {
      uid: t.id,
      name: t.name,
      'created-at': t.createdAt,
      'has-ssh-key': false,
      'service-provider': t.serviceProvider,
      'service-provider-user': null,
    },
    relationships: {
      organization: toOne(
        'organizations',
        t.organizationName,
        `${API_PREFIX}/organizations/${encodeURIComponent(t.organizationName)}`,
      ),
    },
    links: { self: `${API_PREFIX}/oauth-tokens/${t.id}` },
  };
}
