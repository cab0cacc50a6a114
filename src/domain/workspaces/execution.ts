import { Problems } from '../common/errors.js';
import type { ExecutionMode } from '../organizations/organization.js';

/** An execution mode and, for `agent`, the pool that runs it. */
export interface ExecutionSetting {
  mode: ExecutionMode;
  agentPoolId: string | null;
}

/** Where a workspace's effective execution setting comes from. */
export type ExecutionSource = 'workspace' | 'project' | 'organization';

/**
 * The effective execution setting of a workspace: the first level of the chain workspace ->
 * project -> organization that sets its own (`null` inherits from the next). The organization
 * always has one. Read at request time, so a change of a default reaches every inheriting
 * workspace at once.
 */
export function effectiveExecution(chain: {
  workspace: ExecutionSetting | null;
  project: ExecutionSetting | null;
  organization: ExecutionSetting;
}): ExecutionSetting & { source: ExecutionSource } {
  const pick = (s: ExecutionSetting, source: ExecutionSource) => ({
    mode: s.mode,
    agentPoolId: s.mode === 'agent' ? s.agentPoolId : null,
    source,
  });
  if (chain.workspace) return pick(chain.workspace, 'workspace');
  if (chain.project) return pick(chain.project, 'project');
  return pick(chain.organization, 'organization');
}

/**
 * A default execution mode and agent pool after a request (organizations and projects): `mode`
 * and `agentPoolId` as given (`undefined` keeps; a pool `null` clears it). A pool may only be
 * named with the `agent` mode, which needs one; leaving `agent` drops the pool.
 */
export function resolveDefaultExecution(
  current: ExecutionSetting,
  input: { mode?: ExecutionMode; agentPoolId?: string | null },
  pointers: { mode: string; pool: string },
): ExecutionSetting {
  const problems = new Problems();
  const mode = input.mode ?? current.mode;
  let pool = mode === 'agent' ? current.agentPoolId : null;
  if (input.agentPoolId) {
    if (mode !== 'agent')
      problems.add(pointers.pool, "Default agent pool must not be specified unless using 'agent' execution mode");
    else pool = input.agentPoolId;
  } else if (input.agentPoolId === null) pool = null;
  if (mode === 'agent' && !pool && problems.empty)
    problems.add(pointers.pool, "Default agent pool must be specified when using 'agent' execution mode");
  problems.throwIfAny();
  return { mode, agentPoolId: mode === 'agent' ? pool : null };
}
