import type { Kysely } from 'kysely';
import type { Actor } from '../domain/permissions/actor.js';
import { notFound } from '../domain/common/errors.js';
import type { Selectable } from 'kysely';
import {
  impliedProjectPermissions,
  impliedWorkspacePermissions,
  type ProjectAccessLevel,
  type TeamProjectGrant,
  type TeamProjectPermissions,
  type TeamWorkspaceGrant,
  type TeamWorkspacePermissions,
  type WorkspaceAccessLevel,
} from '../domain/permissions/access.js';
import { can, scoped, type Action, type OrgFacts, type TeamGrant } from '../domain/permissions/policy.js';
import type { DB, TeamProjectsTable, TeamsTable, TeamWorkspacesTable } from '../store/schema.js';
import { memoQuery, queryByIds } from '../store/memo-query.js';
import { cachedFacts, generationFor } from './identity/auth-cache.js';

const TEAM_COLUMNS = [
  'id',
  'is_owners',
  'manage_projects',
  'manage_workspaces',
  'read_projects',
  'read_workspaces',
  'manage_membership',
  'manage_teams',
  'manage_organization_access',
  'access_secret_teams',
  'manage_agent_pools',
  'manage_vcs_settings',
  'manage_modules',
  'manage_providers',
] as const;

function toGrant(t: Pick<Selectable<TeamsTable>, (typeof TEAM_COLUMNS)[number]>): TeamGrant {
  return {
    teamId: t.id,
    isOwners: t.is_owners === 1,
    manageProjects: t.manage_projects === 1,
    manageWorkspaces: t.manage_workspaces === 1,
    readProjects: t.read_projects === 1,
    readWorkspaces: t.read_workspaces === 1,
    manageMembership: t.manage_membership === 1,
    manageTeams: t.manage_teams === 1,
    manageOrganizationAccess: t.manage_organization_access === 1,
    accessSecretTeams: t.access_secret_teams === 1,
    manageAgentPools: t.manage_agent_pools === 1,
    manageVcsSettings: t.manage_vcs_settings === 1,
    manageModules: t.manage_modules === 1,
    manageProviders: t.manage_providers === 1,
  };
}

/** A stored `team-projects` row as a grant: a fixed level means its implied permissions. */
export function projectGrantOf(row: Selectable<TeamProjectsTable>): TeamProjectGrant {
  const access = row.access as ProjectAccessLevel;
  const permissions: TeamProjectPermissions =
    access === 'custom'
      ? {
          settings: row.project_settings as TeamProjectPermissions['settings'],
          teams: row.project_teams as TeamProjectPermissions['teams'],
          variableSets: row.project_variable_sets as TeamProjectPermissions['variableSets'],
          workspace: {
            runs: row.ws_runs as TeamWorkspacePermissions['runs'],
            variables: row.ws_variables as TeamWorkspacePermissions['variables'],
            stateVersions: row.ws_state_versions as TeamWorkspacePermissions['stateVersions'],
            sentinelMocks: row.ws_sentinel_mocks as TeamWorkspacePermissions['sentinelMocks'],
            locking: row.ws_locking === 1,
            runTasks: row.ws_run_tasks === 1,
            create: row.ws_create === 1,
            move: row.ws_move === 1,
            delete: row.ws_delete === 1,
          },
        }
      : impliedProjectPermissions(access);
  return { id: row.id, teamId: row.team_id, projectId: row.project_id, access, permissions };
}

/** A stored `team-workspaces` row as a grant. */
export function workspaceGrantOf(row: Selectable<TeamWorkspacesTable>): TeamWorkspaceGrant {
  const access = row.access as WorkspaceAccessLevel;
  const permissions: TeamWorkspacePermissions =
    access === 'custom'
      ? {
          runs: row.runs as TeamWorkspacePermissions['runs'],
          variables: row.variables as TeamWorkspacePermissions['variables'],
          stateVersions: row.state_versions as TeamWorkspacePermissions['stateVersions'],
          sentinelMocks: row.sentinel_mocks as TeamWorkspacePermissions['sentinelMocks'],
          locking: row.workspace_locking === 1,
          runTasks: row.run_tasks === 1,
        }
      : impliedWorkspacePermissions(access);
  return { id: row.id, teamId: row.team_id, workspaceId: row.workspace_id, access, permissions };
}

const projectGrantsOf = queryByIds((db, teamIds) =>
  db.selectFrom('team_projects').selectAll().where('team_id', 'in', teamIds),
);
const workspaceGrantsOf = queryByIds((db, teamIds) =>
  db.selectFrom('team_workspaces').selectAll().where('team_id', 'in', teamIds),
);

/** Adds the teams' project and workspace grants (of this organization) to the facts. */
async function withGrants(db: Kysely<DB>, facts: Pick<OrgFacts, 'organizationId' | 'teams'>): Promise<OrgFacts> {
  const teamIds = facts.teams.map((t) => t.teamId);
  if (teamIds.length === 0) return { ...facts, projectGrants: [], workspaceGrants: [] };
  const projectRows = await projectGrantsOf(db, teamIds);
  const workspaceRows = await workspaceGrantsOf(db, teamIds);
  return {
    ...facts,
    projectGrants: projectRows.map(projectGrantOf),
    workspaceGrants: workspaceRows.map(workspaceGrantOf),
  };
}

// Every request reads them (memoized: built and compiled once, see store/memo-query.ts).
const teamInOrganization = memoQuery((db, p: { teamId: string; organizationId: string }) =>
  db
    .selectFrom('teams')
    .select(TEAM_COLUMNS)
    .where('id', '=', p.teamId)
    .where('organization_id', '=', p.organizationId),
);
const userTeamsInOrganization = memoQuery((db, p: { userId: string; organizationId: string }) =>
  db
    .selectFrom('teams')
    .innerJoin('team_members', 'team_members.team_id', 'teams.id')
    .select(TEAM_COLUMNS.map((c) => `teams.${c}` as const))
    .where('team_members.user_id', '=', p.userId)
    .where('teams.organization_id', '=', p.organizationId),
);

/**
 * Loads the facts the policy needs about `actor` in one organization: the teams it acts
 * through, and those teams' grants on single projects and workspaces. Cached across requests while
 * no security table changed (services/identity/auth-cache.ts); the answer is frozen, shared by requests.
 */
export async function orgFacts(db: Kysely<DB>, actor: Actor, organizationId: string): Promise<OrgFacts> {
  switch (actor.kind) {
    case 'site-admin':
    case 'organization':
    case 'audit-trail':
    case 'run':
      return { organizationId, teams: [], projectGrants: [], workspaceGrants: [] };
    case 'team': {
      const teamId = actor.teamId;
      const gen = await generationFor(db, actor);
      return cachedFacts(db, gen, 'facts', `team:${teamId}:${organizationId}`, async () => {
        const team = await teamInOrganization.first(db, { teamId, organizationId });
        return withGrants(db, { organizationId, teams: team ? [toGrant(team)] : [] });
      });
    }
    case 'user': {
      const userId = actor.userId;
      const gen = await generationFor(db, actor);
      return cachedFacts(db, gen, 'facts', `user:${userId}:${organizationId}`, async () => {
        const teams = await userTeamsInOrganization.execute(db, { userId, organizationId });
        return withGrants(db, { organizationId, teams: teams.map(toGrant) });
      });
    }
  }
}

/**
 * Throws 404 unless the actor may read the organization, then `onDenied` (by default a plain
 * 404; callers pass `notAuthorized(...)` to name the action) unless it may perform `action`.
 * Returns the facts for further checks.
 */
export async function authorize(
  db: Kysely<DB>,
  actor: Actor,
  organizationId: string,
  action: Action,
  onDenied: () => Error = () => notFound(),
): Promise<OrgFacts> {
  const facts = await orgFacts(db, actor, organizationId);
  if (!can(actor, 'organization:read', facts)) throw notFound();
  if (!can(actor, action, facts)) throw onDenied();
  return facts;
}

/**
 * May move workspaces into or out of the project: project admin (or custom "move"), or the
 * organization-level grants that are admin on every project.
 */
export function isProjectAdmin(actor: Actor, facts: OrgFacts, projectId: string): boolean {
  return can(actor, 'project:move-workspaces', scoped(facts, { projectId }));
}
