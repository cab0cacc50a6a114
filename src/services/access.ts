import type { Kysely } from 'kysely';
import type { Actor } from '../domain/actor.js';
import { notFound } from '../domain/errors.js';
import { can, type Action, type OrgFacts, type TeamGrant } from '../domain/policy.js';
import type { DB, TeamsTable } from '../store/schema.js';

function toGrant(t: Pick<TeamsTable, 'id' | 'is_owners' | 'manage_projects' | 'manage_workspaces' | 'read_projects' | 'read_workspaces'>): TeamGrant {
  return {
    teamId: t.id,
    isOwners: t.is_owners === 1,
    manageProjects: t.manage_projects === 1,
    manageWorkspaces: t.manage_workspaces === 1,
    readProjects: t.read_projects === 1,
    readWorkspaces: t.read_workspaces === 1,
  };
}

const TEAM_COLUMNS = ['id', 'is_owners', 'manage_projects', 'manage_workspaces', 'read_projects', 'read_workspaces'] as const;

/** Loads the facts the policy needs about `actor` in one organization. */
export async function orgFacts(db: Kysely<DB>, actor: Actor, organizationId: string): Promise<OrgFacts> {
  switch (actor.kind) {
    case 'site-admin':
    case 'organization':
      return { organizationId, teams: [] };
    case 'team': {
      const team = await db
        .selectFrom('teams')
        .select(TEAM_COLUMNS)
        .where('id', '=', actor.teamId)
        .where('organization_id', '=', organizationId)
        .executeTakeFirst();
      return { organizationId, teams: team ? [toGrant(team)] : [] };
    }
    case 'user': {
      const teams = await db
        .selectFrom('teams')
        .innerJoin('team_members', 'team_members.team_id', 'teams.id')
        .select(TEAM_COLUMNS.map((c) => `teams.${c}` as const))
        .where('team_members.user_id', '=', actor.userId)
        .where('teams.organization_id', '=', organizationId)
        .execute();
      return { organizationId, teams: teams.map(toGrant) };
    }
  }
}

/**
 * Throws 404 unless the actor may read the organization, then `onDenied` (403 by default is the
 * caller's choice) unless it may perform `action`. Returns the facts for further checks.
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
 * Admin on a project (what moving workspaces in or out needs). Team access per project arrives
 * with a later issue; until then it is the organization-level grant to manage projects.
 */
export function isProjectAdmin(actor: Actor, facts: OrgFacts, _projectId: string): boolean {
  return can(actor, 'project:update', facts);
}
