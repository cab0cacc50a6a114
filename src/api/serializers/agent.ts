import type { Agent } from '../../services/agents/agents.js';
import type { AgentTokenInfo } from '../../services/agents/agent-tokens.js';
import { API_PREFIX, toOne, type ResourceObject } from '../documents.js';

/**
 * An agent token as HCP Terraform shows it (`authentication-tokens`): `description`,
 * `created-at`, `last-used-at`, and `token` (the secret) only in the answer that created it;
 * `created-by` names whose token made it; `agent-pool` (a berth addition) its pool.
 */
export function serializeAgentToken(t: AgentTokenInfo): ResourceObject {
  return {
    id: t.id,
    type: 'authentication-tokens',
    attributes: {
      description: t.description,
      'created-at': t.createdAt,
      'last-used-at': t.lastUsedAt,
      token: t.token ?? null,
    },
    relationships: {
      'created-by': { data: t.createdBy ? { type: t.createdBy.type, id: t.createdBy.id } : null },
      'agent-pool': toOne('agent-pools', t.agentPoolId, `${API_PREFIX}/agent-pools/${t.agentPoolId}`),
    },
    links: { self: `${API_PREFIX}/authentication-tokens/${t.id}` },
  };
}

/** An agent as HCP Terraform shows it: `name`, `status`, `ip-address`, `last-ping-at`; its pool. */
export function serializeAgent(a: Agent): ResourceObject {
  return {
    id: a.id,
    type: 'agents',
    attributes: {
      name: a.name,
      status: a.status,
      'ip-address': a.ipAddress,
      'last-ping-at': a.lastPingAt,
    },
    relationships: {
      'agent-pool': toOne('agent-pools', a.agentPoolId, `${API_PREFIX}/agent-pools/${a.agentPoolId}`),
    },
    links: { self: `${API_PREFIX}/agents/${a.id}` },
  };
}
