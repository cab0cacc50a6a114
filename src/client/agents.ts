import type { BerthClient, ListAllOptions } from './client.js';
import type { Resource, SingleResult } from './jsonapi.js';

/** An agent token (`authentication-tokens`): `token` is set only in the answer that created it. */
export interface AgentTokenAttributes {
  [key: string]: unknown;
  description: string | null;
  'created-at': string;
  'last-used-at': string | null;
  token: string | null;
}

export interface AgentAttributes {
  [key: string]: unknown;
  name: string;
  status: string;
  'ip-address': string | null;
  'last-ping-at': string;
}

/** An agent pool's tokens and agents (HCP Terraform's Agent Tokens and Agents APIs). */
export class AgentsClient {
  constructor(private readonly client: BerthClient) {}

  createToken(poolId: string, description: string): Promise<SingleResult<AgentTokenAttributes>> {
    return this.client.create<AgentTokenAttributes>(
      `/agent-pools/${encodeURIComponent(poolId)}/authentication-tokens`,
      'authentication-tokens',
      { description },
    );
  }

  listTokens(poolId: string, options: ListAllOptions = {}): Promise<Resource<AgentTokenAttributes>[]> {
    return this.client.listAll<AgentTokenAttributes>(
      `/agent-pools/${encodeURIComponent(poolId)}/authentication-tokens`,
      {},
      options,
    );
  }

  deleteToken(tokenId: string): Promise<void> {
    return this.client.delete(`/authentication-tokens/${encodeURIComponent(tokenId)}`);
  }

  /** `lastPingSince`: only the agents that pinged since then (ISO 8601). */
  listAgents(
    poolId: string,
    filters: { lastPingSince?: string } = {},
    options: ListAllOptions = {},
  ): Promise<Resource<AgentAttributes>[]> {
    return this.client.listAll<AgentAttributes>(
      `/agent-pools/${encodeURIComponent(poolId)}/agents`,
      { 'filter[last-ping-since]': filters.lastPingSince },
      options,
    );
  }

  /** Deletes an agent that no longer runs (exited, errored, unknown); a running one is a 409. */
  deleteAgent(agentId: string): Promise<void> {
    return this.client.delete(`/agents/${encodeURIComponent(agentId)}`);
  }
}
