import type { Actor } from '../permissions/actor.js';
import { can, workspaceAbilities, type OrgFacts } from '../permissions/policy.js';

/**
 * Who may do what with variable sets (HCP Terraform: creating and editing them takes the
 * organization's "manage workspaces" access; "manage projects" is admin on every workspace, so it
 * counts too, as do owners, the organization token and site administrators). Reading a set takes
 * "read variables" on a workspace it applies to; managers read every set.
 */
export function canManageVarsets(actor: Actor, facts: OrgFacts): boolean {
  if (!can(actor, 'organization:read', facts)) return false;
  // `workspace:replace-consumers` is "manage workspaces" (with owners and the token);
  // `project:create` is "manage projects".
  return can(actor, 'workspace:replace-consumers', facts) || can(actor, 'project:create', facts);
}

/**
 * Where the caller may read variables: every workspace of the organization, or those of the
 * listed projects plus the listed workspaces.
 */
export function variableReadScope(
  actor: Actor,
  facts: OrgFacts,
): 'all' | { projectIds: string[]; workspaceIds: string[] } {
  if (!can(actor, 'organization:read', facts)) return { projectIds: [], workspaceIds: [] };
  if (canManageVarsets(actor, facts)) return 'all';
  if (workspaceAbilities(actor, { ...facts, target: undefined }).variables >= 1) return 'all';
  const projectIds = (facts.projectGrants ?? [])
    .filter((g) => g.permissions.workspace.variables !== 'none')
    .map((g) => g.projectId);
  const workspaceIds = (facts.workspaceGrants ?? [])
    .filter((g) => g.permissions.variables !== 'none')
    .map((g) => g.workspaceId);
  return { projectIds: [...new Set(projectIds)], workspaceIds: [...new Set(workspaceIds)] };
}
