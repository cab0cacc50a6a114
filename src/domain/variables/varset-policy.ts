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

const VARSET_LEVELS = ['none', 'read', 'write'] as const;

/**
 * The caller's access to the variable sets a project owns, from its teams' `team-projects` grants
 * on that project (HCP Terraform's project permission "variable sets": `write` manages them, and
 * project admins have it; `read` reads them). Organization-level managers are not counted here.
 */
export function projectVarsetAccess(actor: Actor, facts: OrgFacts, projectId: string): 'none' | 'read' | 'write' {
  if (!can(actor, 'organization:read', facts)) return 'none';
  let best = 0;
  for (const g of facts.projectGrants ?? [])
    if (g.projectId === projectId) best = Math.max(best, VARSET_LEVELS.indexOf(g.permissions.variableSets));
  return VARSET_LEVELS[best];
}

/**
 * Whether the caller manages one set: an organization-owned set takes `canManageVarsets`; a set
 * owned by a project also lets the project's variable-set managers (project admins, or custom
 * `variable-sets: write` on it) manage it.
 */
export function canManageVarset(actor: Actor, facts: OrgFacts, parentProjectId: string | null): boolean {
  if (canManageVarsets(actor, facts)) return true;
  return parentProjectId !== null && projectVarsetAccess(actor, facts, parentProjectId) === 'write';
}

/** The projects whose own sets the caller reads through its project grants (`variable-sets` read or write). */
export function projectVarsetReadScope(actor: Actor, facts: OrgFacts): string[] {
  if (!can(actor, 'organization:read', facts)) return [];
  const ids = (facts.projectGrants ?? []).filter((g) => g.permissions.variableSets !== 'none').map((g) => g.projectId);
  return [...new Set(ids)];
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
