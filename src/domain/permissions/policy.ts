import {
  RUNS,
  SENTINEL_MOCKS,
  STATE_VERSIONS,
  VARIABLES,
  type ProjectAccessLevel,
  type TeamProjectPermissions,
  type WorkspaceAccessLevel,
  type TeamWorkspacePermissions,
} from './access.js';
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
  /** Team management (`manage-membership`, `manage-teams`, `manage-organization-access`, `access-secret-teams`). */
  manageMembership?: boolean;
  manageTeams?: boolean;
  manageOrganizationAccess?: boolean;
  accessSecretTeams?: boolean;
  /** `manage-agent-pools`, `manage-vcs-settings` (VCS connections and SSH keys). */
  manageAgentPools?: boolean;
  manageVcsSettings?: boolean;
  /** `manage-modules`: publish, change and delete the modules of the organization's registry. */
  manageModules?: boolean;
  /** `manage-providers`: publish and delete the organization's private providers, GPG keys and mirror. */
  manageProviders?: boolean;
}

/** A grant of one of the actor's teams on one project (`team-projects`). */
export interface ProjectGrantFact {
  teamId: string;
  projectId: string;
  access: ProjectAccessLevel;
  permissions: TeamProjectPermissions;
}

/** A grant of one of the actor's teams on one workspace (`team-workspaces`). */
export interface WorkspaceGrantFact {
  teamId: string;
  workspaceId: string;
  access: WorkspaceAccessLevel;
  permissions: TeamWorkspacePermissions;
}

/** What a decision is about, when it is about one project or one workspace. */
export interface Target {
  projectId: string;
  workspaceId?: string;
}

/** Facts about an actor inside one organization. */
export interface OrgFacts {
  organizationId: string;
  /** The teams of this organization the actor acts through (its memberships, or its team token). */
  teams: TeamGrant[];
  /** Those teams' grants on single projects of the organization. */
  projectGrants?: ProjectGrantFact[];
  /** Those teams' grants on single workspaces of the organization. */
  workspaceGrants?: WorkspaceGrantFact[];
  /**
   * The project (and workspace) the question is about. Without it, only organization-level
   * grants count; with it, project- and workspace-level access count too (see `scoped`).
   */
  target?: Target;
  /**
   * For a run's token (actor kind `run`) aimed at another workspace: whether that workspace lets
   * the run's workspace read its state (its `global-remote-state`, or the run's workspace among its
   * remote state consumers). Loaded by `readableWorkspace`; absent means no.
   */
  sharesStateWithRun?: boolean;
}

/** The same facts, aimed at one project or one workspace. */
export function scoped(facts: OrgFacts, target: Target): OrgFacts {
  return { ...facts, target };
}

export type Action =
  | 'organization:create'
  | 'organization:read'
  | 'organization:update'
  | 'organization:delete'
  | 'organization:manage-tokens'
  | 'organization:read-audit-trail'
  | 'project:create'
  | 'project:read'
  | 'project:update'
  | 'project:delete'
  | 'workspace:create'
  | 'workspace:read'
  | 'team:manage'
  | 'team:manage-membership'
  | 'team:manage-organization-access'
  | 'team:manage-owners'
  | 'team:read-secret'
  | 'workspace:update'
  | 'workspace:delete'
  | 'workspace:force-delete'
  | 'workspace:lock'
  | 'workspace:queue-run'
  | 'workspace:apply-run'
  | 'workspace:read-runs'
  | 'workspace:read-variables'
  | 'workspace:update-variables'
  | 'workspace:read-state-outputs'
  | 'workspace:read-state-versions'
  | 'workspace:create-state-versions'
  | 'workspace:read-sentinel-mocks'
  | 'workspace:manage-run-tasks'
  | 'workspace:manage-team-access'
  | 'workspace:replace-consumers'
  | 'workspace:add-remove-consumers'
  | 'workspace:manage-run-triggers'
  | 'project:read-teams'
  | 'project:manage-teams'
  | 'project:move-workspaces'
  | 'organization:manage-agent-pools'
  | 'organization:manage-run-tasks'
  | 'organization:manage-reserved-tags'
  | 'organization:manage-vcs'
  | 'organization:manage-ssh-keys'
  /** The private module registry (domain/registry/, services/registry/modules.ts). */
  | 'registry-module:read'
  | 'registry-module:manage'
  /** The private provider registry and the mirror (services/registry/provider-access.ts). */
  | 'registry-provider:read'
  | 'registry-provider:manage';

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
  if (actor.kind === 'run') return false;
  if (actor.kind === 'organization') return actor.organizationId === facts.organizationId;
  if (actor.kind === 'team') return actor.organizationId === facts.organizationId && facts.teams.length > 0;
  return facts.teams.length > 0;
}

const isOwner = (facts: OrgFacts) => facts.teams.some((t) => t.isOwners);

const rank = <T extends string>(values: readonly T[], v: T) => values.indexOf(v);

/** Effective abilities on one workspace: the strongest of every grant that reaches it. */
export interface WorkspaceAbilities {
  read: boolean;
  /** 0 none, 1 read, 2 plan, 3 apply. */
  runs: number;
  /** Index into VARIABLES: 0 none, 1 read, 2 write. */
  variables: number;
  /** Index into STATE_VERSIONS: 0 none, 1 read-outputs, 2 read, 3 write. */
  stateVersions: number;
  sentinelMocks: number;
  locking: boolean;
  runTasks: boolean;
  /** Safe delete. */
  delete: boolean;
  /** Settings, force-unlock, team access: the workspace admin role. */
  admin: boolean;
}

/** Effective abilities on one project. */
export interface ProjectAbilities {
  read: boolean;
  /** 0 read, 1 update, 2 delete (only meaningful with read). */
  settings: number;
  /** 0 none, 1 read, 2 manage. */
  teams: number;
  createWorkspace: boolean;
  moveWorkspaces: boolean;
}

const NO_WORKSPACE: WorkspaceAbilities = {
  read: false,
  runs: 0,
  variables: 0,
  stateVersions: 0,
  sentinelMocks: 0,
  locking: false,
  runTasks: false,
  delete: false,
  admin: false,
};
const ALL_WORKSPACE: WorkspaceAbilities = {
  read: true,
  runs: 3,
  variables: 2,
  stateVersions: 3,
  sentinelMocks: 1,
  locking: true,
  runTasks: true,
  delete: true,
  admin: true,
};

function fromPermissions(p: TeamWorkspacePermissions, extra: { delete: boolean; admin: boolean }): WorkspaceAbilities {
  return {
    read: true,
    runs: rank(RUNS, p.runs) + 1,
    variables: rank(VARIABLES, p.variables),
    stateVersions: rank(STATE_VERSIONS, p.stateVersions),
    sentinelMocks: rank(SENTINEL_MOCKS, p.sentinelMocks),
    locking: p.locking,
    runTasks: p.runTasks,
    ...extra,
  };
}

function strongest(a: WorkspaceAbilities, b: WorkspaceAbilities): WorkspaceAbilities {
  return {
    read: a.read || b.read,
    runs: Math.max(a.runs, b.runs),
    variables: Math.max(a.variables, b.variables),
    stateVersions: Math.max(a.stateVersions, b.stateVersions),
    sentinelMocks: Math.max(a.sentinelMocks, b.sentinelMocks),
    locking: a.locking || b.locking,
    runTasks: a.runTasks || b.runTasks,
    delete: a.delete || b.delete,
    admin: a.admin || b.admin,
  };
}

function isOrgToken(actor: Actor, facts: OrgFacts): boolean {
  return actor.kind === 'organization' && actor.organizationId === facts.organizationId;
}

/** Full control of the organization: site administrators, its token, its owners. */
function controlsOrganization(actor: Actor, facts: OrgFacts): boolean {
  return isSiteAdmin(actor) || isOrgToken(actor, facts) || isOwner(facts);
}

function projectGrantsOn(facts: OrgFacts, projectId: string | undefined): ProjectGrantFact[] {
  if (!projectId) return [];
  return (facts.projectGrants ?? []).filter((g) => g.projectId === projectId);
}

/**
 * The caller's abilities on the target project: organization-level grants (owners, the
 * organization token and "manage projects" are admin on every project; "read projects" and
 * "manage workspaces" read them all) merged with its teams' `team-projects` grants on it.
 */
export function projectAbilities(actor: Actor, facts: OrgFacts, projectId = facts.target?.projectId): ProjectAbilities {
  if (controlsOrganization(actor, facts) || facts.teams.some((t) => t.manageProjects)) {
    return { read: true, settings: 2, teams: 2, createWorkspace: true, moveWorkspaces: true };
  }
  const out: ProjectAbilities = { read: false, settings: 0, teams: 0, createWorkspace: false, moveWorkspaces: false };
  if (facts.teams.some((t) => t.readProjects || t.manageWorkspaces)) out.read = true;
  if (facts.teams.some((t) => t.manageWorkspaces)) out.createWorkspace = true;
  for (const { permissions: g } of projectGrantsOn(facts, projectId)) {
    out.read = true;
    out.settings = Math.max(out.settings, ['read', 'update', 'delete'].indexOf(g.settings));
    out.teams = Math.max(out.teams, ['none', 'read', 'manage'].indexOf(g.teams));
    out.createWorkspace ||= g.workspace.create;
    out.moveWorkspaces ||= g.workspace.move;
  }
  return out;
}

/**
 * The caller's abilities on the target workspace: the strongest of organization-level grants
 * ("manage workspaces" and "manage projects" are admin on every workspace, "read workspaces"
 * reads them all), project-level access (applies to every workspace of the project) and
 * workspace-level access.
 */
export function workspaceAbilities(actor: Actor, facts: OrgFacts, target = facts.target): WorkspaceAbilities {
  if (controlsOrganization(actor, facts) || facts.teams.some((t) => t.manageWorkspaces || t.manageProjects))
    return ALL_WORKSPACE;
  let out = NO_WORKSPACE;
  if (facts.teams.some((t) => t.readWorkspaces)) {
    out = fromPermissions(
      {
        runs: 'read',
        variables: 'read',
        stateVersions: 'read',
        sentinelMocks: 'none',
        locking: false,
        runTasks: false,
      },
      { delete: false, admin: false },
    );
  }
  for (const { access, permissions: p } of projectGrantsOn(facts, target?.projectId)) {
    // Project admin and maintain are the workspace admin role on every workspace of the project.
    const admin = access === 'admin' || access === 'maintain';
    out = strongest(out, fromPermissions(p.workspace, { delete: p.workspace.delete, admin }));
  }
  if (target?.workspaceId) {
    for (const g of facts.workspaceGrants ?? []) {
      if (g.workspaceId !== target.workspaceId) continue;
      const admin = g.access === 'admin';
      out = strongest(out, fromPermissions(g.permissions, { delete: admin, admin }));
    }
  }
  return out;
}

/**
 * The one decision every service asks. `facts` may carry a `target` (see `scoped`): then
 * project- and workspace-level team access count as well as organization-level grants.
 */
export function can(actor: Actor, action: Action, facts: OrgFacts | null, settings?: OrgSettingsFacts): boolean {
  if (isSiteAdmin(actor)) return true;
  if (action === 'organization:create') return actor.kind === 'user';
  if (!facts) return false;
  if (actor.kind === 'run') return runCan(actor, action, facts);
  // An audit trail token reads its organization's audit trail and does nothing else.
  if (actor.kind === 'audit-trail')
    return action === 'organization:read-audit-trail' && actor.organizationId === facts.organizationId;
  const orgToken = isOrgToken(actor, facts);
  // A token of another organization, or a user in none of its teams, is no member: nothing.
  if (!isMember(actor, facts)) return false;
  const ws = () => workspaceAbilities(actor, facts);
  const prj = () => projectAbilities(actor, facts);
  switch (action) {
    case 'organization:read':
      return true;
    case 'organization:update':
    case 'organization:delete':
    case 'organization:manage-tokens':
      return isOwner(facts);
    // The audit trail: owners and the organization token (HCP Terraform reads it with the latter).
    case 'organization:read-audit-trail':
      return orgToken || isOwner(facts);
    case 'organization:manage-agent-pools':
      return orgToken || isOwner(facts) || facts.teams.some((t) => t.manageAgentPools);
    case 'organization:manage-run-tasks':
    case 'organization:manage-reserved-tags':
      return orgToken || isOwner(facts);
    case 'organization:manage-vcs':
    case 'organization:manage-ssh-keys':
      return orgToken || isOwner(facts) || facts.teams.some((t) => t.manageVcsSettings);
    // The module registry, as HCP: every member reads and downloads its modules; the owners,
    // teams with "manage modules" and the organization token publish, change and delete them.
    case 'registry-module:read':
      return true;
    case 'registry-module:manage':
      return orgToken || isOwner(facts) || facts.teams.some((t) => t.manageModules);
    // Providers, GPG keys and the mirror likewise, with "manage providers".
    case 'registry-provider:read':
      return true;
    case 'registry-provider:manage':
      return orgToken || isOwner(facts) || facts.teams.some((t) => t.manageProviders);
    // Teams: "manage teams" creates, changes and deletes them (and their tokens) and manages their
    // members, and sees every team; "manage membership" only members; "manage organization access"
    // the teams' organization-level flags; those two act on the teams they see, every team with
    // "access secret teams". The owners team's
    // membership is for owners (and the organization token) only.
    case 'team:manage':
      return orgToken || isOwner(facts) || facts.teams.some((t) => t.manageTeams);
    case 'team:manage-membership':
      return orgToken || isOwner(facts) || facts.teams.some((t) => t.manageTeams || t.manageMembership);
    case 'team:manage-organization-access':
      return orgToken || isOwner(facts) || facts.teams.some((t) => t.manageOrganizationAccess);
    case 'team:manage-owners':
      return orgToken || isOwner(facts);
    case 'team:read-secret':
      return orgToken || isOwner(facts) || facts.teams.some((t) => t.manageTeams || t.accessSecretTeams);
    case 'project:create':
      return orgToken || isOwner(facts) || facts.teams.some((t) => t.manageProjects);
    case 'project:read':
      return prj().read;
    case 'project:update':
      return prj().read && prj().settings >= 1;
    case 'project:delete':
      return prj().read && prj().settings >= 2;
    case 'project:read-teams':
      return prj().teams >= 1;
    case 'project:manage-teams':
      return prj().teams >= 2;
    case 'project:move-workspaces':
      return prj().moveWorkspaces;
    // Creating a workspace: the organization-level grant (owners, "manage workspaces", the
    // organization token; "manage projects" is admin on every project), or, in a target
    // project, permission to create workspaces there (project admin or maintain, or custom "create").
    case 'workspace:create':
      return (
        orgToken ||
        isOwner(facts) ||
        facts.teams.some((t) => t.manageWorkspaces || t.manageProjects) ||
        (facts.target !== undefined && prj().createWorkspace)
      );
    case 'workspace:read':
    case 'workspace:read-runs':
      return ws().read;
    case 'workspace:update':
    case 'workspace:manage-team-access':
      return ws().admin;
    case 'workspace:delete':
      return ws().delete;
    // Owners (and the organization token) always; workspace admins only when the organization
    // allows it (allow-force-delete-workspaces).
    case 'workspace:force-delete':
      if (orgToken || isOwner(facts)) return true;
      return Boolean(settings?.allowForceDeleteWorkspaces) && ws().admin;
    case 'workspace:lock':
      return ws().locking;
    case 'workspace:queue-run':
      return ws().runs >= 2;
    case 'workspace:apply-run':
      return ws().runs >= 3;
    case 'workspace:read-variables':
      return ws().variables >= 1;
    case 'workspace:update-variables':
      return ws().variables >= 2;
    case 'workspace:read-state-outputs':
      return ws().stateVersions >= 1;
    case 'workspace:read-state-versions':
      return ws().stateVersions >= 2;
    case 'workspace:create-state-versions':
      return ws().stateVersions >= 3;
    case 'workspace:read-sentinel-mocks':
      return ws().sentinelMocks >= 1;
    case 'workspace:manage-run-tasks':
      return ws().runTasks;
    // Replacing the remote state consumer list: only who manages workspaces for the whole
    // organization. Adding and removing consumers: those, and admins of the workspace.
    case 'workspace:replace-consumers':
      return orgToken || isOwner(facts) || facts.teams.some((t) => t.manageWorkspaces);
    case 'workspace:add-remove-consumers':
      return orgToken || isOwner(facts) || facts.teams.some((t) => t.manageWorkspaces) || ws().admin;
    // Run triggers of a workspace (their sources): its admins (HCP: "admin access to the workspace").
    case 'workspace:manage-run-triggers':
      return ws().admin;
  }
}

type RunActor = Extract<Actor, { kind: 'run' }>;

/**
 * What a run's token may do, and nothing else: in its run's organization (which it must know
 * exists, to find its workspaces by name and read its entitlements), read its own workspace, its
 * state versions and outputs, and, an apply's token only, create state versions there (under its
 * run's lock): a plan writes no state, and one created during it would become current when the run
 * released the workspace, discarded or not, whoever queued it. Read another workspace and its
 * state only when that workspace shares its state with the run's workspace (`sharesStateWithRun`).
 */
function runCan(actor: RunActor, action: Action, facts: OrgFacts): boolean {
  if (actor.organizationId !== facts.organizationId) return false;
  // The registry's modules, so that the configuration a run executes can use them.
  // Its providers too (the registry's and the mirror's): what its `terraform init` installs.
  if (action === 'organization:read' || action === 'registry-module:read' || action === 'registry-provider:read')
    return true;
  const target = facts.target?.workspaceId;
  if (target === undefined) return false;
  const own = target === actor.workspaceId;
  switch (action) {
    case 'workspace:read':
    case 'workspace:read-state-versions':
    case 'workspace:read-state-outputs':
      return own || facts.sharesStateWithRun === true;
    case 'workspace:create-state-versions':
      return own && actor.phase === 'apply';
    default:
      return false;
  }
}

/** What deciding on a team's tokens needs to know about the team. */
export interface TeamTokenFacts {
  teamId: string;
  allowMemberTokenManagement: boolean;
}

/**
 * May create, read and revoke the team's tokens: who manages teams, and the team's own members
 * (users, not its tokens) when the team allows member token management.
 */
export function canManageTeamTokens(actor: Actor, facts: OrgFacts, team: TeamTokenFacts): boolean {
  if (can(actor, 'team:manage', facts)) return true;
  return actor.kind === 'user' && team.allowMemberTokenManagement && facts.teams.some((t) => t.teamId === team.teamId);
}

/**
 * Which workspaces of the organization the caller may read: all of them (an organization-level
 * grant), or those of the listed projects plus the listed workspaces. Lists filter by this; it
 * agrees with `can(actor, 'workspace:read', scoped(...))` for every workspace.
 */
export function readableWorkspaceScope(
  actor: Actor,
  facts: OrgFacts,
): 'all' | { projectIds: string[]; workspaceIds: string[] } {
  // A run's token lists nothing (its routes are limited: api/auth.ts); at most its own workspace.
  if (actor.kind === 'run')
    return { projectIds: [], workspaceIds: actor.organizationId === facts.organizationId ? [actor.workspaceId] : [] };
  if (!isSiteAdmin(actor) && !isMember(actor, facts)) return { projectIds: [], workspaceIds: [] };
  if (workspaceAbilities(actor, { ...facts, target: undefined }).read) return 'all';
  return {
    projectIds: [...new Set((facts.projectGrants ?? []).map((g) => g.projectId))],
    workspaceIds: [...new Set((facts.workspaceGrants ?? []).map((g) => g.workspaceId))],
  };
}

/** Which projects of the organization the caller may read: all, or those listed. */
export function readableProjectScope(actor: Actor, facts: OrgFacts): 'all' | { projectIds: string[] } {
  if (!isSiteAdmin(actor) && !isMember(actor, facts)) return { projectIds: [] };
  if (projectAbilities(actor, facts, undefined).read) return 'all';
  return { projectIds: [...new Set((facts.projectGrants ?? []).map((g) => g.projectId))] };
}
