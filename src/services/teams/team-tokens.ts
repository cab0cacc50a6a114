import { sql, type Kysely } from 'kysely';
import { BerthError, notAuthorized, notFound } from '../../domain/common/errors.js';
import { offsetOf, type PageRequest, type Paged } from '../../domain/common/paging.js';
import { can, canManageTeamTokens, type OrgFacts } from '../../domain/permissions/policy.js';
import type { TokenCreator, TokenInfo, TokenOptions } from '../../domain/identity/token.js';
import type { DB } from '../../store/schema.js';
import { containsInsensitive } from '../../store/like.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import { orgFacts } from '../access.js';
import type { ServiceContext } from '../context.js';
import { readableOrganization } from '../organizations/organizations.js';
import { canSeeTeam } from './teams.js';
import { creatorOf, insertToken } from '../identity/tokens.js';
import { inOrganizationOf } from '../write-scope.js';

/**
 * Team tokens. A team has at most one legacy token (no description: creating it again replaces
 * it) and any number of tokens with a description, unique within the team. Who manages teams
 * manages their tokens; so do the team's members when the team allows member token management.
 */

/** Team tokens with what their documents and decisions need. */
function teamTokens(db: Kysely<DB>) {
  return db
    .selectFrom('tokens')
    .innerJoin('teams', 'teams.id', 'tokens.team_id')
    .innerJoin('organizations', 'organizations.id', 'teams.organization_id')
    .leftJoin('organizations as creator_org', 'creator_org.id', 'tokens.created_by_id')
    .selectAll('tokens')
    .select([
      'teams.name as team_name',
      'teams.organization_id as team_org_id',
      'organizations.name as org_name',
      'creator_org.name as creator_org_name',
    ])
    .where('tokens.kind', '=', 'team');
}

type TeamTokenRow = Awaited<ReturnType<ReturnType<typeof teamTokens>['executeTakeFirstOrThrow']>>;

/** The creator as the API names it (organizations by name). */
export function creatorFromRow(row: {
  created_by_type: string | null;
  created_by_id: string | null;
  creator_org_name: string | null;
}): TokenCreator | null {
  if (!row.created_by_type || !row.created_by_id) return null;
  if (row.created_by_type === 'organizations')
    return row.creator_org_name ? { type: 'organizations', id: row.creator_org_name } : null;
  return { type: row.created_by_type as TokenCreator['type'], id: row.created_by_id };
}

function toInfo(row: TeamTokenRow): TokenInfo {
  return {
    id: row.id,
    kind: 'team',
    description: row.description,
    createdAt: row.created_at,
    lastUsedAt: row.last_used_at,
    expiredAt: row.expired_at,
    createdBy: creatorFromRow(row),
    userId: null,
    teamId: row.team_id,
    organizationName: row.org_name,
  };
}

/**
 * The team, when the caller may manage its tokens: 404 when the caller cannot see the team, and
 * 404 "not found, or you are not authorized to ..." when it can but may not manage its tokens.
 */
async function teamForTokens(ctx: ServiceContext, db: Tx, teamId: string) {
  const row = await db.selectFrom('teams').selectAll().where('id', '=', teamId).executeTakeFirst();
  if (!row) throw notFound(`team ${teamId} not found`);
  const facts = await orgFacts(db, ctx.actor, row.organization_id);
  if (!canSeeTeam(ctx, row, facts)) throw notFound(`team ${teamId} not found`);
  if (!canManageTeamTokens(ctx.actor, facts, tokenFacts(row)))
    throw notAuthorized(`manage the tokens of team ${teamId}`);
  return row;
}

function tokenFacts(row: { id: string; allow_member_token_management: number }) {
  return { teamId: row.id, allowMemberTokenManagement: row.allow_member_token_management === 1 };
}

function descriptionTaken(): BerthError {
  return new BerthError([
    {
      status: 422,
      title: 'invalid attributes',
      detail: 'Validation failed: Description has already been taken',
      pointer: '/data/attributes/description',
    },
  ]);
}

/**
 * Creates a team token. Without a description (absent or null) it is the team's legacy token,
 * which replaces (revokes) the previous legacy token; with one (even "") it is an additional
 * token, and the description must be new within the team (422).
 */
export async function createTeamToken(ctx: ServiceContext, teamId: string, options: TokenOptions): Promise<TokenInfo> {
  return writeTransaction(inOrganizationOf(ctx, 'teams', teamId), async (tx) => {
    await teamForTokens(ctx, tx, teamId);
    const description = options.description ?? null;
    if (description === null) {
      await tx
        .deleteFrom('tokens')
        .where('team_id', '=', teamId)
        .where('kind', '=', 'team')
        .where('description', 'is', null)
        .execute();
    } else {
      const taken = await tx
        .selectFrom('tokens')
        .select('id')
        .where('team_id', '=', teamId)
        .where('kind', '=', 'team')
        .where('description', '=', description)
        .executeTakeFirst();
      if (taken) throw descriptionTaken();
    }
    const info = await insertToken(tx, ctx.clock.now().toISOString(), {
      kind: 'team',
      user_id: null,
      team_id: teamId,
      organization_id: null,
      description,
      expired_at: options.expiredAt,
      ...creatorOf(ctx.actor),
    });
    const row = await teamTokens(tx).where('tokens.id', '=', info.id).executeTakeFirstOrThrow();
    return { ...toInfo(row), token: info.token };
  });
}

/** The team's legacy (description-less) token: 404 when it has none. */
export async function readLegacyTeamToken(ctx: ServiceContext, teamId: string): Promise<TokenInfo> {
  await teamForTokens(ctx, ctx.db, teamId);
  const row = await teamTokens(ctx.db)
    .where('tokens.team_id', '=', teamId)
    .where('tokens.description', 'is', null)
    .executeTakeFirst();
  if (!row) throw notFound('the team has no token');
  return toInfo(row);
}

/** Deletes the team's legacy token: 404 when it has none. */
export async function deleteLegacyTeamToken(ctx: ServiceContext, teamId: string): Promise<void> {
  await writeTransaction(inOrganizationOf(ctx, 'teams', teamId), async (tx) => {
    await teamForTokens(ctx, tx, teamId);
    const result = await tx
      .deleteFrom('tokens')
      .where('team_id', '=', teamId)
      .where('kind', '=', 'team')
      .where('description', 'is', null)
      .executeTakeFirst();
    if (Number(result.numDeletedRows) === 0) throw notFound('the team has no token');
  });
}

/** A team token by id, for those who may manage the team's tokens (404 for everyone else). */
async function visibleTeamToken(ctx: ServiceContext, db: Tx, id: string): Promise<TeamTokenRow> {
  const row = await teamTokens(db).where('tokens.id', '=', id).executeTakeFirst();
  if (!row) throw notFound(`token ${id} not found`);
  const team = await db.selectFrom('teams').selectAll().where('id', '=', row.team_id!).executeTakeFirstOrThrow();
  const facts = await orgFacts(db, ctx.actor, team.organization_id);
  if (!canSeeTeam(ctx, team, facts) || !canManageTeamTokens(ctx.actor, facts, tokenFacts(team)))
    throw notFound(`token ${id} not found`);
  return row;
}

export async function readTeamTokenById(ctx: ServiceContext, id: string): Promise<TokenInfo> {
  return toInfo(await visibleTeamToken(ctx, ctx.db, id));
}

export async function deleteTeamTokenById(ctx: ServiceContext, id: string): Promise<void> {
  await writeTransaction(inOrganizationOf(ctx, 'team_tokens', id), async (tx) => {
    await visibleTeamToken(ctx, tx, id);
    await tx.deleteFrom('tokens').where('id', '=', id).execute();
  });
}

export const TEAM_TOKEN_SORTS = ['team-name', 'created-by', 'expired-at', 'last-used-at'] as const;
export type TeamTokenSort = (typeof TEAM_TOKEN_SORTS)[number];

export interface TeamTokenListOptions {
  /** Substring of the team's name, case-insensitive. */
  q?: string;
  sort?: { by: TeamTokenSort; descending: boolean };
}

const SORT_COLUMNS = {
  'team-name': 'teams.name',
  'created-by': 'tokens.created_by_id',
  'expired-at': 'tokens.expired_at',
  'last-used-at': 'tokens.last_used_at',
} as const;

function ordered<Q extends ReturnType<typeof teamTokens>>(query: Q, options: TeamTokenListOptions): Q {
  let q = query;
  if (options.q) q = q.where(containsInsensitive('teams.name', options.q)) as Q;
  if (options.sort) {
    const column = SORT_COLUMNS[options.sort.by];
    q = q
      .orderBy(sql`case when ${sql.ref(column)} is null then 1 else 0 end`)
      .orderBy(column, options.sort.descending ? 'desc' : 'asc') as Q;
  }
  return q.orderBy('tokens.created_at').orderBy('tokens.id') as Q;
}

/**
 * The team tokens of an organization the caller may manage: every team's for who manages teams,
 * else those of the caller's own teams that allow member token management. Ordered by creation,
 * or by `sort` (tokens without a value last, either way).
 */
export async function listTeamTokens(
  ctx: ServiceContext,
  orgName: string,
  page: PageRequest,
  options: TeamTokenListOptions = {},
): Promise<Paged<TokenInfo>> {
  const { row: org, facts } = await readableOrganization(ctx, orgName);
  const rows = await ordered(teamTokens(ctx.db).where('teams.organization_id', '=', org.id), options).execute();
  const visible = await visibleRows(ctx, facts, rows);
  const start = offsetOf(page);
  return { items: visible.slice(start, start + page.size).map(toInfo), total: visible.length, page };
}

/** One team's tokens (404 as for creating them). */
export async function listTokensOfTeam(
  ctx: ServiceContext,
  teamId: string,
  page: PageRequest,
  options: TeamTokenListOptions = {},
): Promise<Paged<TokenInfo>> {
  await teamForTokens(ctx, ctx.db, teamId);
  const rows = await ordered(teamTokens(ctx.db).where('tokens.team_id', '=', teamId), options).execute();
  const start = offsetOf(page);
  return { items: rows.slice(start, start + page.size).map(toInfo), total: rows.length, page };
}

async function visibleRows(ctx: ServiceContext, facts: OrgFacts, rows: TeamTokenRow[]): Promise<TeamTokenRow[]> {
  if (can(ctx.actor, 'team:manage', facts)) return rows;
  const own = new Set(facts.teams.map((t) => t.teamId));
  const teamIds = [...new Set(rows.map((r) => r.team_id!).filter((id) => own.has(id)))];
  if (teamIds.length === 0) return [];
  const teams = await ctx.db.selectFrom('teams').selectAll().where('id', 'in', teamIds).execute();
  const allowed = new Set(teams.filter((t) => canManageTeamTokens(ctx.actor, facts, tokenFacts(t))).map((t) => t.id));
  return rows.filter((r) => allowed.has(r.team_id!));
}
