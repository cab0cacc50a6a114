import type { Selectable } from 'kysely';
import { BerthError, forbidden, notFound } from '../domain/errors.js';
import { newId } from '../domain/ids.js';
import { offsetOf, type PageRequest, type Paged } from '../domain/paging.js';
import { can, type OrgFacts } from '../domain/policy.js';
import { OWNERS_TEAM, type Team, type TeamInput } from '../domain/team.js';
import type { TeamsTable } from '../store/schema.js';
import { writeTransaction, type Tx } from '../store/transaction.js';
import type { ServiceContext } from './context.js';
import { readableOrganization } from './organizations.js';
import { orgFacts } from './access.js';

type TeamRow = Selectable<TeamsTable>;

/** A team is visible to those who manage teams, to its members, and to all members when its visibility is `organization`. */
function canSeeTeam(ctx: ServiceContext, row: TeamRow, facts: OrgFacts): boolean {
  if (can(ctx.actor, 'team:manage', facts)) return true;
  if (facts.teams.some((t) => t.teamId === row.id)) return true;
  return row.visibility === 'organization' && can(ctx.actor, 'organization:read', facts);
}

async function toTeam(ctx: ServiceContext, db: Tx, row: TeamRow, orgName: string, facts: OrgFacts): Promise<Team> {
  const members = await db
    .selectFrom('team_members')
    .innerJoin('users', 'users.id', 'team_members.user_id')
    .select(['users.id', 'users.username'])
    .where('team_members.team_id', '=', row.id)
    .orderBy('users.username')
    .execute();
  const manage = can(ctx.actor, 'team:manage', facts);
  return {
    id: row.id,
    organizationName: orgName,
    name: row.name,
    isOwners: row.is_owners === 1,
    visibility: row.visibility,
    organizationAccess: {
      manageProjects: row.manage_projects === 1,
      manageWorkspaces: row.manage_workspaces === 1,
      readProjects: row.read_projects === 1,
      readWorkspaces: row.read_workspaces === 1,
    },
    userIds: members.map((m) => m.id),
    usernames: members.map((m) => m.username),
    createdAt: row.created_at,
    permissions: {
      canUpdateMembership: manage,
      canDestroy: manage && row.is_owners !== 1,
      canUpdateOrganizationAccess: manage && row.is_owners !== 1,
      canUpdateApiToken: manage,
    },
  };
}

/** Loads a team the actor may see (404 otherwise), with its organization's facts. */
export async function visibleTeam(ctx: ServiceContext, db: Tx, id: string) {
  const row = await db
    .selectFrom('teams')
    .innerJoin('organizations', 'organizations.id', 'teams.organization_id')
    .selectAll('teams')
    .select('organizations.name as org_name')
    .where('teams.id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound(`team ${id} not found`);
  const facts = await orgFacts(db, ctx.actor, row.organization_id);
  if (!canSeeTeam(ctx, row, facts)) throw notFound(`team ${id} not found`);
  return { row, facts, orgName: row.org_name };
}

export function requireManage(ctx: ServiceContext, facts: OrgFacts): void {
  if (!can(ctx.actor, 'team:manage', facts)) throw forbidden('only owners and organization tokens can manage teams');
}

function nameTaken(): BerthError {
  return new BerthError([
    {
      status: 422,
      title: 'invalid attribute',
      detail: 'Name has already been taken',
      pointer: '/data/attributes/name',
    },
  ]);
}

function accessColumns(input: TeamInput): Partial<TeamsTable> {
  const a = input.organizationAccess;
  const out: Partial<TeamsTable> = {};
  if (a.manageProjects !== undefined) out.manage_projects = a.manageProjects ? 1 : 0;
  if (a.manageWorkspaces !== undefined) out.manage_workspaces = a.manageWorkspaces ? 1 : 0;
  if (a.readProjects !== undefined) out.read_projects = a.readProjects ? 1 : 0;
  if (a.readWorkspaces !== undefined) out.read_workspaces = a.readWorkspaces ? 1 : 0;
  return out;
}

export async function createTeam(ctx: ServiceContext, orgName: string, input: TeamInput): Promise<Team> {
  const id = newId('team');
  await writeTransaction(ctx, async (tx) => {
    const { row: org, facts } = await readableOrganization(ctx, orgName, tx);
    requireManage(ctx, facts);
    const taken = await tx
      .selectFrom('teams')
      .select('id')
      .where('organization_id', '=', org.id)
      .where('name', '=', input.name!)
      .executeTakeFirst();
    if (taken) throw nameTaken();
    await tx
      .insertInto('teams')
      .values({
        id,
        organization_id: org.id,
        name: input.name!,
        is_owners: 0,
        manage_projects: 0,
        manage_workspaces: 0,
        read_projects: 0,
        read_workspaces: 0,
        visibility: input.visibility ?? 'secret',
        created_at: ctx.clock.now().toISOString(),
        ...accessColumns(input),
      })
      .execute();
  });
  return getTeam(ctx, id);
}

export async function getTeam(ctx: ServiceContext, id: string): Promise<Team> {
  const { row, facts, orgName } = await visibleTeam(ctx, ctx.db, id);
  return toTeam(ctx, ctx.db, row, orgName, facts);
}

export async function listTeams(
  ctx: ServiceContext,
  orgName: string,
  page: PageRequest,
  q?: string,
): Promise<Paged<Team>> {
  const { row: org, facts } = await readableOrganization(ctx, orgName);
  const rows = await ctx.db
    .selectFrom('teams')
    .selectAll()
    .where('organization_id', '=', org.id)
    .orderBy('name')
    .execute();
  let visible = rows.filter((r) => canSeeTeam(ctx, r, facts));
  if (q) visible = visible.filter((r) => r.name.toLowerCase().includes(q.toLowerCase()));
  const slice = visible.slice(offsetOf(page), offsetOf(page) + page.size);
  const items: Team[] = [];
  for (const r of slice) items.push(await toTeam(ctx, ctx.db, r, org.name, facts));
  return { items, total: visible.length, page };
}

export async function updateTeam(ctx: ServiceContext, id: string, input: TeamInput): Promise<Team> {
  await writeTransaction(ctx, async (tx) => {
    const { row, facts } = await visibleTeam(ctx, tx, id);
    requireManage(ctx, facts);
    const changes: Partial<TeamsTable> = accessColumns(input);
    if (
      row.is_owners === 1 &&
      (Object.keys(changes).length > 0 || (input.name !== undefined && input.name !== row.name))
    ) {
      throw new BerthError([
        {
          status: 422,
          title: 'invalid attribute',
          detail: 'The owners team cannot be renamed and always has full access',
          pointer: '/data/attributes',
        },
      ]);
    }
    if (input.name !== undefined && input.name !== row.name) {
      const taken = await tx
        .selectFrom('teams')
        .select('id')
        .where('organization_id', '=', row.organization_id)
        .where('name', '=', input.name)
        .executeTakeFirst();
      if (taken) throw nameTaken();
      changes.name = input.name;
    }
    if (input.visibility !== undefined) changes.visibility = input.visibility;
    if (Object.keys(changes).length > 0) await tx.updateTable('teams').set(changes).where('id', '=', id).execute();
  });
  return getTeam(ctx, id);
}

export async function deleteTeam(ctx: ServiceContext, id: string): Promise<void> {
  await writeTransaction(ctx, async (tx) => {
    const { row, facts } = await visibleTeam(ctx, tx, id);
    requireManage(ctx, facts);
    if (row.name === OWNERS_TEAM && row.is_owners === 1) throw forbidden('the owners team cannot be deleted');
    await tx.deleteFrom('teams').where('id', '=', id).execute();
  });
}
