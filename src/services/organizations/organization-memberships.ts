import { BerthError, notAuthorized, notFound } from '../../domain/common/errors.js';
import { newId } from '../../domain/common/ids.js';
import { MAX_TEAM_MEMBERS, tooMany } from '../../domain/common/limits.js';
import type {
  InviteInput,
  MemberUser,
  MembershipStatus,
  OrganizationMembership,
} from '../../domain/organizations/organization-membership.js';
import type { PageRequest, Paged } from '../../domain/common/paging.js';
import { can } from '../../domain/permissions/policy.js';
import type { Team } from '../../domain/teams/team.js';
import { isPendingUsername, pendingUsername } from '../../domain/identity/user.js';
import { sql } from 'kysely';
import { containsInsensitive, containsInsensitiveOf } from '../../store/like.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import { orgFacts } from '../access.js';
import type { ServiceContext } from '../context.js';
import { dropUnusedPlaceholder, membershipRows, toMemberships, type MembershipRow } from './membership-rows.js';
import { readableOrganization } from './organizations.js';
import { ensureOwnersKeepAMember, teamMemberCount } from '../teams/team-members.js';
import { visibleTeamsByIds } from '../teams/teams.js';
import { seesUserDetails, usersByIds } from '../identity/users.js';
import { inOrganizationOf } from '../write-scope.js';
import { inPage } from '../../store/literal-limit.js';

/**
 * Organization memberships, as HCP Terraform has them: owners (and the organization token, and
 * site administrators) invite users by email; the invited user accepts; removing a membership
 * takes the user out of every team of the organization.
 */

/** The organization by name, for those who manage its members (404 for everyone else). */
async function managedOrganization(ctx: ServiceContext, tx: Tx, orgName: string) {
  const { row, facts } = await readableOrganization(ctx, orgName, tx);
  if (!can(ctx.actor, 'team:manage', facts)) {
    throw notAuthorized('manage the memberships of this organization (owners and the organization token only)');
  }
  return row;
}

/**
 * A membership by id with what the actor may do with it: `manage` (owners, the organization
 * token, site administrators) or `self` (its own user). Anyone else gets 404.
 */
async function visibleMembership(ctx: ServiceContext, tx: Tx, id: string) {
  const row = await membershipRows(tx).where('m.id', '=', id).executeTakeFirst();
  if (!row) throw notFound(`organization membership ${id} not found`);
  const manage = can(ctx.actor, 'team:manage', await orgFacts(tx, ctx.actor, row.organization_id));
  const self = ctx.actor.kind === 'user' && ctx.actor.userId === row.user_id;
  if (!manage && !self) throw notFound(`organization membership ${id} not found`);
  return { row, manage, self };
}

async function one(ctx: ServiceContext, db: Tx, row: MembershipRow): Promise<OrganizationMembership> {
  return (await toMemberships(db, [row], ctx.actor))[0];
}

/**
 * Who an invitation of this email goes to (compared without case): the placeholder of earlier
 * invitations still pending, if any, else the oldest account with the email, else a new
 * placeholder. An invitation claims no username (domain/identity/user.ts, `pendingUsername`); the person
 * a site administrator later creates with this email takes the placeholder over, invitations and
 * all (users.createUser). The placeholder comes first: berth verifies no email, so an account
 * that set its email (`PATCH /account/update`) to one with pending invitations gets neither
 * those nor the later ones.
 */
async function userForEmail(tx: Tx, email: string, now: string): Promise<string> {
  const found = await tx
    .selectFrom('users')
    .select(['id', 'username'])
    .where((eb) => eb(eb.fn('lower', ['email']), '=', email.toLowerCase()))
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  const account = found.find((u) => isPendingUsername(u.username)) ?? found[0];
  if (account) return account.id;
  const id = newId('user');
  await tx
    .insertInto('users')
    .values({ id, username: pendingUsername(id), email, site_admin: 0, created_at: now })
    .execute();
  return id;
}

/**
 * Invites the user with `email` (a new user is created when none has it) to the organization,
 * to join `teamIds` (teams of this organization) once they accept. A user already a member, or
 * already invited, is a 422.
 */
export async function inviteMember(
  ctx: ServiceContext,
  orgName: string,
  input: InviteInput,
): Promise<OrganizationMembership> {
  return writeTransaction(ctx, async (tx) => {
    const org = await managedOrganization(ctx, tx, orgName);
    if (input.teamIds.length > 0) {
      const teams = await tx
        .selectFrom('teams')
        .select('id')
        .where('organization_id', '=', org.id)
        .where('id', 'in', input.teamIds)
        .execute();
      const missing = input.teamIds.filter((t) => !teams.some((x) => x.id === t));
      if (missing.length > 0) throw notFound(`team(s) not found: ${missing.join(', ')}`);
    }
    const now = ctx.clock.now().toISOString();
    const userId = await userForEmail(tx, input.email, now);
    const existing = await tx
      .selectFrom('organization_memberships')
      .select('id')
      .where('organization_id', '=', org.id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    if (existing) {
      throw new BerthError([
        {
          status: 422,
          title: 'invalid attribute',
          detail: 'The user with this email is already a member of the organization, or invited to it',
          pointer: '/data/attributes/email',
        },
      ]);
    }
    const id = newId('ou');
    await tx
      .insertInto('organization_memberships')
      .values({ id, organization_id: org.id, user_id: userId, status: 'invited', created_at: now, email: input.email })
      .execute();
    if (input.teamIds.length > 0) {
      await tx
        .insertInto('invited_team_members')
        .values(input.teamIds.map((teamId) => ({ membership_id: id, team_id: teamId })))
        .execute();
      for (const teamId of input.teamIds)
        if ((await teamMemberCount(tx, teamId)) > MAX_TEAM_MEMBERS)
          throw tooMany('/data/relationships/teams', 'A team has too many members', MAX_TEAM_MEMBERS);
    }
    return one(ctx, tx, (await membershipRows(tx).where('m.id', '=', id).executeTakeFirst())!);
  });
}

/** The email an invitation was sent to (its user's, for a membership written before migration 027). */
const INVITED_EMAIL = sql`coalesce(${sql.ref('m.email')}, ${sql.ref('users.email')})`;

export interface MembershipFilter {
  /** Only these emails (compared without case). */
  emails?: string[];
  status?: MembershipStatus;
  /** Part of the username or email (case-insensitive). */
  q?: string;
}

export async function listMemberships(
  ctx: ServiceContext,
  orgName: string,
  page: PageRequest,
  filter: MembershipFilter,
): Promise<Paged<OrganizationMembership>> {
  const org = await managedOrganization(ctx, ctx.db, orgName);
  let query = membershipRows(ctx.db).where('m.organization_id', '=', org.id);
  // An invitation is found by the email it was sent to, never by its user's username or own
  // email: what the inviter did not type stays unknown to them (toMemberships).
  if (filter.emails && filter.emails.length > 0) {
    const emails = filter.emails.map((e) => e.toLowerCase());
    query = query.where((eb) =>
      eb.or([
        eb.and([eb('m.status', '=', 'active'), eb(eb.fn('lower', ['users.email']), 'in', emails)]),
        eb.and([eb('m.status', '!=', 'active'), sql<boolean>`lower(${INVITED_EMAIL}) in (${sql.join(emails)})`]),
      ]),
    );
  }
  if (filter.status) query = query.where('m.status', '=', filter.status);
  if (filter.q) {
    const q = filter.q;
    query = query.where((eb) =>
      eb.or([
        eb.and([
          eb('m.status', '=', 'active'),
          eb.or([containsInsensitive('users.username', q), containsInsensitive('users.email', q)]),
        ]),
        eb.and([eb('m.status', '!=', 'active'), containsInsensitiveOf(INVITED_EMAIL, q)]),
      ]),
    );
  }
  const { n } = await query
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await query.orderBy('m.created_at').orderBy('m.id').$call(inPage(page)).execute();
  return { items: await toMemberships(ctx.db, rows, ctx.actor), total: Number(n), page };
}

/** The caller's own memberships, in every organization (`GET /organization-memberships`). */
export async function listOwnMemberships(
  ctx: ServiceContext,
  page: PageRequest,
  status?: MembershipStatus,
): Promise<Paged<OrganizationMembership>> {
  const a = ctx.actor;
  if (a.kind !== 'user') return { items: [], total: 0, page };
  let query = membershipRows(ctx.db).where('m.user_id', '=', a.userId);
  if (status) query = query.where('m.status', '=', status);
  const { n } = await query
    .clearSelect()
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  const rows = await query.orderBy('organizations.name').$call(inPage(page)).execute();
  return { items: await toMemberships(ctx.db, rows, ctx.actor), total: Number(n), page };
}

export async function getMembership(ctx: ServiceContext, id: string): Promise<OrganizationMembership> {
  const { row } = await visibleMembership(ctx, ctx.db, id);
  return one(ctx, ctx.db, row);
}

/**
 * Removes a membership: those who manage members may remove anyone, a user may leave. The user
 * leaves every team of the organization; the owners team keeps at least one member (422).
 */
export async function deleteMembership(ctx: ServiceContext, id: string): Promise<void> {
  await writeTransaction(inOrganizationOf(ctx, 'organization_memberships', id), async (tx) => {
    const { row } = await visibleMembership(ctx, tx, id);
    const teams = tx.selectFrom('teams').select('id').where('organization_id', '=', row.organization_id);
    const owner = await tx
      .selectFrom('team_members')
      .innerJoin('teams', 'teams.id', 'team_members.team_id')
      .select('teams.id')
      .where('team_members.user_id', '=', row.user_id)
      .where('teams.organization_id', '=', row.organization_id)
      .where('teams.is_owners', '=', 1)
      .executeTakeFirst();
    await tx.deleteFrom('team_members').where('user_id', '=', row.user_id).where('team_id', 'in', teams).execute();
    if (owner) await ensureOwnersKeepAMember(tx, row.organization_id);
    await tx.deleteFrom('organization_memberships').where('id', '=', id).execute();
    // An invitation of someone without an account leaves nothing behind.
    await dropUnusedPlaceholder(tx, row.user_id);
  });
}

/**
 * The invited user accepts (berth extension: HCP Terraform accepts in its web UI): the
 * membership becomes active and the user joins the teams they were invited to. Only the invited
 * user may (404 for those who manage members too); accepting an active membership changes nothing.
 */
export async function acceptMembership(ctx: ServiceContext, id: string): Promise<OrganizationMembership> {
  return writeTransaction(inOrganizationOf(ctx, 'organization_memberships', id), async (tx) => {
    const { row, self } = await visibleMembership(ctx, tx, id);
    if (!self) throw notAuthorized('accept this invitation (the invited user only)');
    if (row.status !== 'active') {
      const pending = await tx
        .selectFrom('invited_team_members')
        .select('team_id')
        .where('membership_id', '=', id)
        .execute();
      if (pending.length > 0) {
        await tx
          .insertInto('team_members')
          .values(pending.map((p) => ({ team_id: p.team_id, user_id: row.user_id })))
          .execute();
      }
      await tx.deleteFrom('invited_team_members').where('membership_id', '=', id).execute();
      await tx.updateTable('organization_memberships').set({ status: 'active' }).where('id', '=', id).execute();
    }
    return one(ctx, tx, { ...row, status: 'active' });
  });
}

/**
 * The users and teams a list of memberships may include (`include=user,teams`), as the caller may
 * see them: an invitation's user is only the email it was sent to (`invitee`); a member is seen
 * whole by itself and site administrators, by everyone else as its public face and the email
 * its membership shows (HCP Terraform shows the email of its members to those who manage them).
 */
export async function membershipIncludes(
  ctx: ServiceContext,
  items: OrganizationMembership[],
  include: { user: boolean; teams: boolean },
): Promise<{ users: MemberUser[]; teams: Team[] }> {
  // A page of memberships was just read: the event loop gets a turn before its includes are.
  if (items.length > 1) await new Promise((resolve) => setImmediate(resolve));
  const users: MemberUser[] = [];
  if (include.user) {
    const seen = new Set<string>();
    for (const m of items) {
      if (m.invitee && !seen.has(m.userId)) users.push({ kind: 'invitee', id: m.userId, email: m.email });
      seen.add(m.userId);
    }
    const accounts = items.filter((m) => !m.invitee);
    for (const user of await usersByIds(
      ctx.db,
      accounts.map((m) => m.userId),
    )) {
      const email = accounts.find((m) => m.userId === user.id)!.email;
      users.push({ kind: 'account', view: { user, details: seesUserDetails(ctx, user.id) }, email });
    }
  }
  // The teams the caller may see, in one go (a page of 100 memberships may name 100 teams).
  const teams: Team[] = include.teams
    ? await visibleTeamsByIds(ctx, [...new Set(items.flatMap((m) => m.teamIds))])
    : [];
  return { users, teams };
}
