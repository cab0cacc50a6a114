import type { Selectable, Updateable } from 'kysely';
import { BerthError, forbidden, notAuthorized, notFound } from '../../domain/common/errors.js';
import { MAX_TEAMS_PER_ORGANIZATION, tooMany } from '../../domain/common/limits.js';
import { newId } from '../../domain/common/ids.js';
import { offsetOf, type PageRequest, type Paged } from '../../domain/common/paging.js';
import { can, canManageTeamTokens, type OrgFacts } from '../../domain/permissions/policy.js';
import {
  accessColumn,
  ALL_ORGANIZATION_ACCESS,
  ORGANIZATION_ACCESS_FLAGS,
  OWNERS_TEAM,
  type OrganizationAccess,
  type Team,
  type TeamInput,
} from '../../domain/teams/team.js';
import { containsInsensitive } from '../../store/like.js';
import type { TeamsTable } from '../../store/schema.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { readableOrganization } from '../organizations/organizations.js';
import { orgFacts } from '../access.js';
import { inOrganizationNamed, inOrganizationOf } from '../write-scope.js';

type TeamRow = Selectable<TeamsTable>;

/**
 * A team is visible to those who may see every team (owners, the organization token, "manage
 * teams", "access secret teams"), to its members, and to all members when its visibility is
 * `organization`.
 */
export function canSeeTeam(ctx: ServiceContext, row: TeamRow, facts: OrgFacts): boolean {
  if (can(ctx.actor, 'team:read-secret', facts)) return true;
  if (facts.teams.some((t) => t.teamId === row.id)) return true;
  return row.visibility === 'organization' && can(ctx.actor, 'organization:read', facts);
}

/** The team's `organization-access`: every flag for the owners team, else the stored ones. */
function organizationAccessOf(row: TeamRow): OrganizationAccess {
  if (row.is_owners === 1) return { ...ALL_ORGANIZATION_ACCESS };
  const record = row as unknown as Record<string, unknown>;
  return Object.fromEntries(
    ORGANIZATION_ACCESS_FLAGS.map((f) => [f, record[accessColumn(f)] === 1]),
  ) as OrganizationAccess;
}

async function toTeam(ctx: ServiceContext, db: Tx, row: TeamRow, orgName: string, facts: OrgFacts): Promise<Team> {
  const members = await db
    .selectFrom('team_members')
    .innerJoin('users', 'users.id', 'team_members.user_id')
    .select(['users.id', 'users.username'])
    .where('team_members.team_id', '=', row.id)
    .orderBy('users.username')
    .execute();
  return teamOf(ctx, row, orgName, facts, members);
}

function teamOf(
  ctx: ServiceContext,
  row: TeamRow,
  orgName: string,
  facts: OrgFacts,
  members: { id: string; username: string }[],
): Team {
  const owners = row.is_owners === 1;
  const manage = can(ctx.actor, 'team:manage', facts);
  return {
    id: row.id,
    organizationName: orgName,
    name: row.name,
    isOwners: owners,
    visibility: row.visibility,
    ssoTeamId: row.sso_team_id,
    allowMemberTokenManagement: row.allow_member_token_management === 1,
    organizationAccess: organizationAccessOf(row),
    userIds: members.map((m) => m.id),
    usernames: members.map((m) => m.username),
    createdAt: row.created_at,
    permissions: {
      canUpdateMembership: can(ctx.actor, owners ? 'team:manage-owners' : 'team:manage-membership', facts),
      canDestroy: manage && !owners,
      canUpdateOrganizationAccess: can(ctx.actor, 'team:manage-organization-access', facts) && !owners,
      canUpdateApiToken: canManageTeamTokens(ctx.actor, facts, {
        teamId: row.id,
        allowMemberTokenManagement: row.allow_member_token_management === 1,
      }),
      canUpdateVisibility: manage,
      canUpdateName: manage && !owners,
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
  if (!can(ctx.actor, 'team:manage', facts))
    throw notAuthorized('manage teams (owners, the organization token and teams that manage teams only)');
}

function requireManageAccess(ctx: ServiceContext, facts: OrgFacts): void {
  if (!can(ctx.actor, 'team:manage-organization-access', facts))
    throw notAuthorized("change teams' organization access");
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

function accessColumns(input: TeamInput): Record<string, number> {
  const out: Record<string, number> = {};
  for (const f of ORGANIZATION_ACCESS_FLAGS) {
    const value = input.organizationAccess[f];
    if (value !== undefined) out[accessColumn(f)] = value ? 1 : 0;
  }
  return out;
}

/** The columns of the plain attributes (everything but the organization access). */
function settingColumns(input: TeamInput): Partial<Updateable<TeamsTable>> {
  const out: Partial<Updateable<TeamsTable>> = {};
  if (input.visibility !== undefined) out.visibility = input.visibility;
  if (input.ssoTeamId !== undefined) out.sso_team_id = input.ssoTeamId;
  if (input.allowMemberTokenManagement !== undefined)
    out.allow_member_token_management = input.allowMemberTokenManagement ? 1 : 0;
  return out;
}

export async function createTeam(ctx: ServiceContext, orgName: string, input: TeamInput): Promise<Team> {
  const id = newId('team');
  await writeTransaction(inOrganizationNamed(ctx, orgName), async (tx) => {
    const { row: org, facts } = await readableOrganization(ctx, orgName, tx);
    requireManage(ctx, facts);
    if (Object.values(input.organizationAccess).some((v) => v === true)) requireManageAccess(ctx, facts);
    const taken = await tx
      .selectFrom('teams')
      .select('id')
      .where('organization_id', '=', org.id)
      .where('name', '=', input.name!)
      .executeTakeFirst();
    if (taken) throw nameTaken();
    const { n } = await tx
      .selectFrom('teams')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('organization_id', '=', org.id)
      .executeTakeFirstOrThrow();
    if (Number(n) >= MAX_TEAMS_PER_ORGANIZATION)
      throw tooMany('/data', 'An organization has too many teams', MAX_TEAMS_PER_ORGANIZATION);
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
        visibility: 'secret',
        created_at: ctx.clock.now().toISOString(),
        ...settingColumns(input),
        ...accessColumns(input),
      })
      .execute();
    // What it made, for the audit record written with this transaction (api/audit-actions.ts).
    return { id };
  });
  return getTeam(ctx, id);
}

export async function getTeam(ctx: ServiceContext, id: string): Promise<Team> {
  const { row, facts, orgName } = await visibleTeam(ctx, ctx.db, id);
  return toTeam(ctx, ctx.db, row, orgName, facts);
}

/**
 * The teams of `ids` the actor may see, in that order, with a query for the rows and one for the
 * members, whatever their number (the teams of a page of memberships: up to 100, each up to 1,000
 * members; one `getTeam` each took two queries and the organization's facts a hundred times).
 * Teams that do not exist, or that the actor may not see, are left out.
 */
export async function visibleTeamsByIds(ctx: ServiceContext, ids: string[]): Promise<Team[]> {
  if (ids.length === 0) return [];
  const rows = await ctx.db
    .selectFrom('teams')
    .innerJoin('organizations', 'organizations.id', 'teams.organization_id')
    .selectAll('teams')
    .select('organizations.name as org_name')
    .where('teams.id', 'in', ids)
    .execute();
  const factsOf = new Map<string, OrgFacts>();
  const visible: { row: (typeof rows)[number]; facts: OrgFacts }[] = [];
  for (const row of rows) {
    let facts = factsOf.get(row.organization_id);
    if (!facts) factsOf.set(row.organization_id, (facts = await orgFacts(ctx.db, ctx.actor, row.organization_id)));
    if (canSeeTeam(ctx, row, facts)) visible.push({ row, facts });
  }
  if (visible.length === 0) return [];
  const members = new Map<string, { id: string; username: string }[]>(visible.map((v) => [v.row.id, []]));
  const found = await ctx.db
    .selectFrom('team_members')
    .innerJoin('users', 'users.id', 'team_members.user_id')
    .select(['team_members.team_id', 'users.id', 'users.username'])
    .where(
      'team_members.team_id',
      'in',
      visible.map((v) => v.row.id),
    )
    .orderBy('users.username')
    .execute();
  for (const m of found) members.get(m.team_id)!.push({ id: m.id, username: m.username });
  const byId = new Map(
    visible.map((v) => [v.row.id, teamOf(ctx, v.row, v.row.org_name, v.facts, members.get(v.row.id)!)]),
  );
  return ids.filter((id) => byId.has(id)).map((id) => byId.get(id)!);
}

export interface TeamListFilter {
  /** Substring of the name, case-insensitive. */
  q?: string;
  /** Exact names (`filter[names]`). */
  names?: string[];
}

export async function listTeams(
  ctx: ServiceContext,
  orgName: string,
  page: PageRequest,
  filter: TeamListFilter = {},
): Promise<Paged<Team>> {
  const { row: org, facts } = await readableOrganization(ctx, orgName);
  let query = ctx.db.selectFrom('teams').selectAll().where('organization_id', '=', org.id);
  if (filter.q) query = query.where(containsInsensitive('name', filter.q));
  if (filter.names) query = query.where('name', 'in', filter.names.length > 0 ? filter.names : ['']);
  const rows = await query.orderBy('name').execute();
  const visible = rows.filter((r) => canSeeTeam(ctx, r, facts));
  const slice = visible.slice(offsetOf(page), offsetOf(page) + page.size);
  const items: Team[] = [];
  for (const r of slice) items.push(await toTeam(ctx, ctx.db, r, org.name, facts));
  return { items, total: visible.length, page };
}

export async function updateTeam(ctx: ServiceContext, id: string, input: TeamInput): Promise<Team> {
  await writeTransaction(inOrganizationOf(ctx, 'teams', id), async (tx) => {
    const { row, facts } = await visibleTeam(ctx, tx, id);
    const access = accessColumns(input);
    const settings = settingColumns(input);
    const renames = input.name !== undefined && input.name !== row.name;
    const touchesAccess = Object.keys(access).length > 0;
    const touchesSettings = input.name !== undefined || Object.keys(settings).length > 0;
    if (touchesAccess) requireManageAccess(ctx, facts);
    if (touchesSettings) requireManage(ctx, facts);
    // An update that changes nothing still needs one of the two permissions.
    if (!touchesAccess && !touchesSettings && !can(ctx.actor, 'team:manage-organization-access', facts))
      requireManage(ctx, facts);
    if (row.is_owners === 1 && (touchesAccess || renames)) {
      throw new BerthError([
        {
          status: 422,
          title: 'invalid attribute',
          detail: 'The owners team cannot be renamed and always has full access',
          pointer: '/data/attributes',
        },
      ]);
    }
    const changes: Updateable<TeamsTable> = { ...settings, ...access };
    if (renames) {
      const taken = await tx
        .selectFrom('teams')
        .select('id')
        .where('organization_id', '=', row.organization_id)
        .where('name', '=', input.name!)
        .executeTakeFirst();
      if (taken) throw nameTaken();
      changes.name = input.name;
    }
    if (Object.keys(changes).length > 0) await tx.updateTable('teams').set(changes).where('id', '=', id).execute();
  });
  return getTeam(ctx, id);
}

export async function deleteTeam(ctx: ServiceContext, id: string): Promise<void> {
  await writeTransaction(inOrganizationOf(ctx, 'teams', id), async (tx) => {
    const { row, facts } = await visibleTeam(ctx, tx, id);
    requireManage(ctx, facts);
    if (row.name === OWNERS_TEAM && row.is_owners === 1) throw forbidden('the owners team cannot be deleted');
    await tx.deleteFrom('teams').where('id', '=', id).execute();
  });
}

/** Members of the owners team are for owners to change; of other teams, for "manage membership". */
export function requireMembershipManage(ctx: ServiceContext, facts: OrgFacts, row: TeamRow): void {
  if (!can(ctx.actor, row.is_owners === 1 ? 'team:manage-owners' : 'team:manage-membership', facts))
    throw notAuthorized(`change the members of team ${row.id}`);
}
