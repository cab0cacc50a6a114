import * as v from 'valibot';
import { bool, checkAttributes, opt, str } from '../common/attributes.js';
import { Problems } from '../common/errors.js';
import { MAX_ALLOWED_WORKSPACES_PER_POOL } from '../common/limits.js';
import { toManyIds } from '../common/relationships.js';

export interface AgentPool {
  id: string;
  organizationName: string;
  name: string;
  organizationScoped: boolean;
  createdAt: string;
  /** The workspaces whose effective execution runs on the pool (own setting or inherited default). */
  workspaceIds: string[];
  /** The workspaces a pool that is not organization-scoped serves, in the order they were allowed. */
  allowedWorkspaceIds: string[];
  /** Its agents that are running (`idle` or `busy`): none, and its workspaces' runs wait. */
  agentCount: number;
}

/** A validated create (`name` required) or update (every member optional: undefined keeps). */
export interface AgentPoolInput {
  name?: string;
  organizationScoped?: boolean;
  /** From `relationships.allowed-workspaces`: replaces the list when present (`[]` clears it). */
  allowedWorkspaceIds?: string[];
}

const NAME = /^[A-Za-z0-9_.\- ]+$/;
const schema = v.looseObject({ name: opt(str()), 'organization-scoped': opt(bool()) });

/** Validates an agent pool create (`mode: 'create'`, name required) or update body. */
export function parseAgentPoolInput(
  resource: { attributes: Record<string, unknown>; relationships: Record<string, unknown> },
  mode: 'create' | 'update',
): AgentPoolInput {
  const a = checkAttributes(schema, resource.attributes);
  const problems = new Problems();
  const name = a.name?.trim();
  if (a.name === undefined ? mode === 'create' : !name) problems.add('/data/attributes/name', "Name can't be blank");
  else if (name !== undefined && (!NAME.test(name) || name.length > 90)) {
    problems.add(
      '/data/attributes/name',
      'Name may only contain letters, numbers, spaces, ".", "-" and "_" (at most 90 characters)',
    );
  }
  const allowedWorkspaceIds = toManyIds(resource.relationships, 'allowed-workspaces', 'workspaces', problems);
  if (allowedWorkspaceIds && allowedWorkspaceIds.length > MAX_ALLOWED_WORKSPACES_PER_POOL)
    problems.add(
      '/data/relationships/allowed-workspaces/data',
      `An agent pool allows at most ${MAX_ALLOWED_WORKSPACES_PER_POOL} workspaces`,
    );
  problems.throwIfAny();
  return {
    name,
    organizationScoped: a['organization-scoped'] ?? (mode === 'create' ? true : undefined),
    allowedWorkspaceIds,
  };
}
