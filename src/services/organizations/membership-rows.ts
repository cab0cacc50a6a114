import { isSiteAdmin, type Actor } from '../../domain/permissions/actor.js';
import { newId } from '../../domain/common/ids.js';
import {
  inviteeUserId,
  type MembershipStatus,
  type OrganizationMembership,
} from '../../domain/organizations/organization-membership.js';
import { isPendingUsername, PENDING_USERNAME_LIKE } from '../../domain/identity/user.js';
import { readRows } from '../../store/direct-reads.js';
import type { Tx } from '../../store/transaction.js';

/** Low-level reads and writes of organization memberships, shared by the services that need them. */

export interface MembershipRow {
  id: string;
  organization_id: string;
  user_id: string;
  status: string;
  created_at: string;
  /** The user's own email. */
  email: string;
  /** The email the invitation was sent to, as typed (migration 027). */
  invited_email: string | null;
  username: string;
  org_name: string;
}

/** Memberships with their user's email and username and their organization's name. */
export function membershipRows(db: Tx) {
  return db
    .selectFrom('organization_memberships as m')
    .innerJoin('users', 'users.id', 'm.user_id')
    .innerJoin('organizations', 'organizations.id', 'm.organization_id')
    .select([
      'm.id',
      'm.organization_id',
      'm.user_id',
      'm.status',
      'm.created_at',
      'users.email',
      'm.email as invited_email',
      'users.username',
      'organizations.name as org_name',
    ]);
}

/** An active membership of the creator of a new organization (who is also its first owner). */
export async function addCreatorMembership(tx: Tx, organizationId: string, userId: string, now: string): Promise<void> {
  await tx
    .insertInto('organization_memberships')
    .values({ id: newId('ou'), organization_id: organizationId, user_id: userId, status: 'active', created_at: now })
    .execute();
}

/** Memberships whose teams one query reads: about 2,500 team references (a few ms) at most. */
const TEAMS_READ_PER_QUERY = 25;

/**
 * The teams of each membership, ordered by team name: the teams an active member is in, or the
 * teams an invited member will join when they accept. Many memberships (a team's 1,000, each in
 * 100 teams) are read a slice at a time, with a turn of the event loop between two slices, so that
 * one caller's large answer does not hold up everybody else's requests (issue 32, item 2).
 */
export async function teamIdsOf(db: Tx, rows: MembershipRow[]): Promise<Map<string, string[]>> {
  const out = new Map<string, string[]>(rows.map((r) => [r.id, []]));
  for (let start = 0; start < rows.length; start += TEAMS_READ_PER_QUERY) {
    if (start > 0) await new Promise((resolve) => setImmediate(resolve));
    await readTeamIds(db, rows.slice(start, start + TEAMS_READ_PER_QUERY), out);
  }
  return out;
}

/**
 * The teams of a slice of memberships, in three index-only reads: the (member, team) pairs of the
 * active members and of the invitations, then the names and organizations of those teams, the
 * order by name made here. The one join ordered by team name it replaces made SQLite go through
 * every team of the instance for each slice (2.3 ms a slice of 25 memberships in 100 teams, against
 * 0.9 ms).
 */
async function readTeamIds(db: Tx, rows: MembershipRow[], out: Map<string, string[]>): Promise<void> {
  const pairs: { membership: MembershipRow; teamId: string }[] = [];
  const active = rows.filter((r) => r.status === 'active');
  if (active.length > 0) {
    // A user's memberships in several organizations (a caller's own memberships) share its teams' rows.
    const byUser = new Map<string, MembershipRow[]>();
    for (const r of active) byUser.set(r.user_id, [...(byUser.get(r.user_id) ?? []), r]);
    const found = await readRows(
      db,
      db
        .selectFrom('team_members')
        .select(['team_id', 'user_id'])
        .where('user_id', 'in', [...byUser.keys()]),
    );
    for (const f of found) for (const m of byUser.get(f.user_id)!) pairs.push({ membership: m, teamId: f.team_id });
  }
  const invited = new Map(rows.filter((r) => r.status !== 'active').map((r) => [r.id, r]));
  if (invited.size > 0) {
    const found = await readRows(
      db,
      db
        .selectFrom('invited_team_members')
        .select(['membership_id', 'team_id'])
        .where('membership_id', 'in', [...invited.keys()]),
    );
    for (const f of found) pairs.push({ membership: invited.get(f.membership_id)!, teamId: f.team_id });
  }
  if (pairs.length === 0) return;
  const teams = new Map(
    (
      await readRows(
        db,
        db
          .selectFrom('teams')
          .select(['id', 'name', 'organization_id'])
          .where('id', 'in', [...new Set(pairs.map((p) => p.teamId))]),
      )
    ).map((t) => [t.id, t]),
  );
  const named = new Map<string, { id: string; name: string }[]>();
  for (const { membership, teamId } of pairs) {
    const team = teams.get(teamId);
    // Only the teams of the membership's own organization.
    if (!team || team.organization_id !== membership.organization_id) continue;
    let list = named.get(membership.id);
    if (!list) named.set(membership.id, (list = []));
    list.push(team);
  }
  for (const [id, list] of named) {
    // By name, as SQLite orders text (code unit by code unit); names are unique in an organization.
    list.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    out.get(id)!.push(...list.map((t) => t.id));
  }
}

/**
 * Memberships as `reader` may see them: an invitation shows the email it was sent to (as typed)
 * and, to anyone but the invitee, a user id of its own, so that it tells the inviter nothing
 * about the account behind the email (domain/organizations/organization-membership.ts). Site
 * administrators, who may read every account (`GET /admin/users`), see the account of an email
 * that has one, its username included, as HCP Terraform shows an invited user's; an email
 * without an account (a placeholder) shows no username to anyone.
 */
export async function toMemberships(db: Tx, rows: MembershipRow[], reader: Actor): Promise<OrganizationMembership[]> {
  const teams = await teamIdsOf(db, rows);
  return rows.map((r) => {
    const invited = r.status !== 'active';
    const seesAccount =
      (reader.kind === 'user' && reader.userId === r.user_id) ||
      (isSiteAdmin(reader) && !isPendingUsername(r.username));
    const invitee = invited && !seesAccount;
    return {
      id: r.id,
      status: r.status as MembershipStatus,
      email: invited ? (r.invited_email ?? r.email) : r.email,
      organizationName: r.org_name,
      userId: invitee ? inviteeUserId(r.id) : r.user_id,
      invitee,
      teamIds: teams.get(r.id) ?? [],
      createdAt: r.created_at,
    };
  });
}

/**
 * Removes the user if it is an invitation's placeholder (domain/identity/user.ts) left without any
 * membership: an invitation of someone without an account leaves nothing behind.
 */
export async function dropUnusedPlaceholder(tx: Tx, userId: string): Promise<void> {
  await tx
    .deleteFrom('users')
    .where('id', '=', userId)
    .where('username', 'like', PENDING_USERNAME_LIKE)
    .where((eb) =>
      eb.not(eb.exists(eb.selectFrom('organization_memberships').select('id').where('user_id', '=', userId))),
    )
    .execute();
}
