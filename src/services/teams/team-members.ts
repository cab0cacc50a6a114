import { BerthError, notFound } from '../../domain/common/errors.js';
import { MAX_TEAM_MEMBERS, tooMany } from '../../domain/common/limits.js';
import type { OrganizationMembership } from '../../domain/organizations/organization-membership.js';
import { PENDING_USERNAME_LIKE, type User } from '../../domain/identity/user.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { membershipRows, toMemberships, type MembershipRow } from '../organizations/membership-rows.js';
import { requireMembershipManage, visibleTeam } from './teams.js';
import { usersByIds } from '../identity/users.js';
import { inOrganizationOf } from '../write-scope.js';

/**
 * Team membership. A team's members must be members of its organization first: naming a user who
 * is not (by username) fails exactly as naming no user at all does, so that owners cannot learn
 * which usernames exist elsewhere on the instance. Active members join the team at once; invited
 * members join it when they accept.
 */
export type MemberRefs = { usernames: string[] } | { membershipIds: string[] };

/** The memberships (of the organization) the references name; all-or-nothing, else 404. */
async function namedMemberships(tx: Tx, organizationId: string, refs: MemberRefs): Promise<MembershipRow[]> {
  const base = membershipRows(tx).where('m.organization_id', '=', organizationId);
  if ('usernames' in refs) {
    // An invitation's placeholder has no username to be named by.
    const rows = await base
      .where('users.username', 'in', refs.usernames)
      .where('users.username', 'not like', PENDING_USERNAME_LIKE)
      .execute();
    const missing = refs.usernames.filter((n) => !rows.some((r) => r.username === n));
    if (missing.length > 0) throw notFound(`user(s) not found: ${missing.join(', ')}`);
    return rows;
  }
  const rows = await base.where('m.id', 'in', refs.membershipIds).execute();
  const missing = refs.membershipIds.filter((id) => !rows.some((r) => r.id === id));
  if (missing.length > 0) throw notFound(`organization membership(s) not found: ${missing.join(', ')}`);
  return rows;
}

/** Refuses (422) a change that left the organization's owners team without a member. */
export async function ensureOwnersKeepAMember(tx: Tx, organizationId: string): Promise<void> {
  const owners = await tx
    .selectFrom('teams')
    .select('id')
    .where('organization_id', '=', organizationId)
    .where('is_owners', '=', 1)
    .executeTakeFirst();
  if (!owners) return;
  const left = await tx
    .selectFrom('team_members')
    .select('user_id')
    .where('team_id', '=', owners.id)
    .executeTakeFirst();
  if (!left) {
    throw new BerthError([
      {
        status: 422,
        title: 'invalid attribute',
        detail: 'The owners team must keep at least one member',
        pointer: '/data',
      },
    ]);
  }
}

/**
 * Adds or removes members, named by username (HCP Terraform's `relationships/users`) or by
 * organization membership id (`relationships/organization-memberships`). All-or-nothing.
 */
export async function changeTeamMembers(
  ctx: ServiceContext,
  teamId: string,
  refs: MemberRefs,
  mode: 'add' | 'remove',
): Promise<void> {
  await writeTransaction(inOrganizationOf(ctx, 'teams', teamId), async (tx) => {
    const { row: team, facts } = await visibleTeam(ctx, tx, teamId);
    requireMembershipManage(ctx, facts, team);
    const members = await namedMemberships(tx, team.organization_id, refs);
    let removed = 0;
    for (const m of members) {
      if (mode === 'remove') {
        const r = await tx
          .deleteFrom('team_members')
          .where('team_id', '=', teamId)
          .where('user_id', '=', m.user_id)
          .executeTakeFirst();
        removed += Number(r.numDeletedRows);
        await tx
          .deleteFrom('invited_team_members')
          .where('team_id', '=', teamId)
          .where('membership_id', '=', m.id)
          .execute();
      } else if (m.status === 'active') {
        const exists = await tx
          .selectFrom('team_members')
          .select('user_id')
          .where('team_id', '=', teamId)
          .where('user_id', '=', m.user_id)
          .executeTakeFirst();
        if (!exists) await tx.insertInto('team_members').values({ team_id: teamId, user_id: m.user_id }).execute();
      } else {
        const exists = await tx
          .selectFrom('invited_team_members')
          .select('team_id')
          .where('team_id', '=', teamId)
          .where('membership_id', '=', m.id)
          .executeTakeFirst();
        if (!exists)
          await tx.insertInto('invited_team_members').values({ team_id: teamId, membership_id: m.id }).execute();
      }
    }
    if (removed > 0 && team.is_owners === 1) await ensureOwnersKeepAMember(tx, team.organization_id);
    if (mode === 'add' && (await teamMemberCount(tx, teamId)) > MAX_TEAM_MEMBERS)
      throw tooMany('/data', 'A team has too many members', MAX_TEAM_MEMBERS);
  });
}

/** Members of a team, active and invited. */
export async function teamMemberCount(tx: Tx, teamId: string): Promise<number> {
  const count = async (table: 'team_members' | 'invited_team_members') =>
    Number(
      (
        await tx
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('team_id', '=', teamId)
          .executeTakeFirstOrThrow()
      ).n,
    );
  return (await count('team_members')) + (await count('invited_team_members'));
}

/** The ids of the memberships of a team's members: active members, then those invited to it. */
export async function teamMembershipIds(db: Tx, teamId: string): Promise<string[]> {
  const active = await db
    .selectFrom('team_members')
    .innerJoin('teams', 'teams.id', 'team_members.team_id')
    .innerJoin('organization_memberships as m', (j) =>
      j.onRef('m.user_id', '=', 'team_members.user_id').onRef('m.organization_id', '=', 'teams.organization_id'),
    )
    .innerJoin('users', 'users.id', 'team_members.user_id')
    .select('m.id')
    .where('team_members.team_id', '=', teamId)
    .orderBy('users.username')
    .execute();
  const invited = await db
    .selectFrom('invited_team_members')
    .innerJoin('organization_memberships as m', 'm.id', 'invited_team_members.membership_id')
    .select('m.id')
    .where('invited_team_members.team_id', '=', teamId)
    .orderBy('m.created_at')
    .orderBy('m.id')
    .execute();
  return [...active, ...invited].map((r) => r.id);
}

/**
 * What a team document relates and may include about its members: the membership ids of its
 * members (active, then invited), the users when asked, and, when asked, the memberships
 * themselves: read a slice at a time as they are consumed (`memberships()`), so that a large
 * team's document is rendered slice by slice and never holds all of its memberships at once.
 * The caller has already been allowed to see the team.
 */
export async function teamMemberDetails(
  ctx: ServiceContext,
  team: { id: string; userIds: string[] },
  include: { users: boolean; memberships: boolean },
): Promise<{ membershipIds: string[]; users: User[]; memberships: AsyncIterable<OrganizationMembership[]> }> {
  const membershipIds = await teamMembershipIds(ctx.db, team.id);
  const users = include.users && team.userIds.length > 0 ? await usersByIds(ctx.db, team.userIds) : [];
  return { membershipIds, users, memberships: include.memberships ? membershipSlices(ctx, membershipIds) : none() };
}

/**
 * Up to 1,000 members, each in up to 1,000 teams: read in slices, giving the event loop a turn
 * between two, so that one large team's document never holds up every other request (issue 32,
 * item 2).
 */
async function* membershipSlices(ctx: ServiceContext, ids: string[]): AsyncIterable<OrganizationMembership[]> {
  for (let start = 0; start < ids.length; start += MEMBERSHIPS_PER_SLICE) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    const rows = await membershipRows(ctx.db)
      .where('m.id', 'in', ids.slice(start, start + MEMBERSHIPS_PER_SLICE))
      .execute();
    // In the order of `ids`, which the rows need not follow.
    const order = new Map(rows.map((r) => [r.id, r]));
    yield await toMemberships(
      ctx.db,
      ids.slice(start, start + MEMBERSHIPS_PER_SLICE).flatMap((id) => order.get(id) ?? []),
      ctx.actor,
    );
  }
}

async function* none(): AsyncIterable<OrganizationMembership[]> {}

/** Memberships read at once for a team's `include=organization-memberships` (about 10 ms a slice). */
const MEMBERSHIPS_PER_SLICE = 100;
