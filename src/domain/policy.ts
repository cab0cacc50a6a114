import { isSiteAdmin, type Actor } from './actor.js';

/**
 * The permission policy: one function every service operation asks. It is pure; services load
 * the facts (which teams the actor acts through in the organization) and pass them in.
 */

/** What a team grants its members (or its token) across an organization. */
export interface TeamGrant {
  teamId: string;
  isOwners: boolean;
  manageProjects: boolean;
  manageWorkspaces: boolean;
  readProjects: boolean;
  readWorkspaces: boolean;
}

/** Facts about an actor inside one organization. */
export interface OrgFacts {
  organizationId: string;
  /** The teams of this organization the actor acts through (its memberships, or its team token). */
  teams: TeamGrant[];
}

export type Action =
  | 'organization:create'
  | 'organization:read'
  | 'organization:update'
  | 'organization:delete'
  | 'organization:manage-tokens'
  | 'project:create'
  | 'project:read'
  | 'project:update'
  | 'project:delete'
  | 'workspace:create'
  | 'workspace:read'
  | 'team:manage'
  | 'workspace:update'
  | 'workspace:delete'
  | 'workspace:force-delete'
  | 'workspace:lock'
  | 'workspace:queue-run'
  | 'organization:manage-agent-pools'
  | 'organization:manage-vcs'
  | 'organization:manage-ssh-keys'
  | 'workspace:manage-consumers';

/** Organization settings some decisions depend on. */
export interface OrgSettingsFacts {
  allowForceDeleteWorkspaces: boolean;
}

/** Actions outside any organization (the instance itself). */
export type InstanceAction = 'instance:manage-users' | 'instance:mint-site-admin-token';

export function canOnInstance(actor: Actor, action: InstanceAction): boolean {
  switch (action) {
    case 'instance:manage-users':
    case 'instance:mint-site-admin-token':
      return isSiteAdmin(actor);
  }
}

function isMember(actor: Actor, facts: OrgFacts): boolean {
  if (actor.kind === 'organization') return actor.organizationId === facts.organizationId;
  if (actor.kind === 'team') return actor.organizationId === facts.organizationId && facts.teams.length > 0;
  return facts.teams.length > 0;
}

const isOwner = (facts: OrgFacts) => facts.teams.some((t) => t.isOwners);

export function can(actor: Actor, action: Action, facts: OrgFacts | null, settings?: OrgSettingsFacts): boolean {
  if (isSiteAdmin(actor)) return true;
  if (action === 'organization:create') return actor.kind === 'user';
  if (!facts) return false;
  const orgToken = actor.kind === 'organization' && actor.organizationId === facts.organizationId;
  switch (action) {
    case 'organization:read':
      return isMember(actor, facts);
    case 'organization:update':
    case 'organization:delete':
    case 'organization:manage-tokens':
      return isOwner(facts);
    case 'project:create':
    case 'project:update':
    case 'project:delete':
      return orgToken || isOwner(facts) || facts.teams.some((t) => t.manageProjects);
    case 'project:read':
      return orgToken || isOwner(facts) || facts.teams.some((t) => t.manageProjects || t.readProjects || t.manageWorkspaces);
    case 'workspace:create':
      return orgToken || isOwner(facts) || facts.teams.some((t) => t.manageWorkspaces);
    case 'workspace:read':
      return orgToken || isOwner(facts) || facts.teams.some((t) => t.manageWorkspaces || t.readWorkspaces);
    // Workspace admins: until teams get per-workspace access (a later issue), the teams that
    // manage all workspaces of the organization.
    case 'workspace:update':
    case 'workspace:delete':
    // Lock and unlock, and creating state versions (write access); teams get per-workspace
    // levels with the authorization issue.
    case 'workspace:lock':
    case 'workspace:queue-run':
      return orgToken || isOwner(facts) || facts.teams.some((t) => t.manageWorkspaces);
    // Owners (and the organization token) always; workspace admins only when the organization
    // allows it (allow-force-delete-workspaces).
    case 'workspace:force-delete':
      if (orgToken || isOwner(facts)) return true;
      return Boolean(settings?.allowForceDeleteWorkspaces) && facts.teams.some((t) => t.manageWorkspaces);
    // Replacing a workspace's whole remote state consumer list (PATCH): callers who manage
    // workspaces across the whole organization, whatever per-workspace access they have.
    case 'workspace:manage-consumers':
      return orgToken || isOwner(facts) || facts.teams.some((t) => t.manageWorkspaces);
    case 'organization:manage-agent-pools':
    case 'organization:manage-vcs':
    case 'organization:manage-ssh-keys':
    case 'team:manage':
      return orgToken || isOwner(facts);
  }
}
