import { BerthError, Problems } from '../common/errors.js';
import { derivedId } from '../common/ids.js';
import { isEmail, type UserView } from '../identity/user.js';

export const MEMBERSHIP_STATUSES = ['invited', 'active'] as const;
export type MembershipStatus = (typeof MEMBERSHIP_STATUSES)[number];

/**
 * A user's membership of an organization, as one caller sees it. `invited` until the user
 * accepts, then `active`. Only an active member acts through their teams; `teamIds` are the
 * teams an invited member will join.
 *
 * An invitation tells nobody but the invitee who the invited person is (`invitee`): until they
 * accept, it shows the email it was sent to, as typed, and a user id of its own
 * (`inviteeUserId`), the same whether the email has an account or not. Anyone else sees the
 * user's own email and id.
 */
export interface OrganizationMembership {
  id: string;
  status: MembershipStatus;
  email: string;
  organizationName: string;
  /** The user's id, or the invitation's own (`invitee`). */
  userId: string;
  /** Shown as an invitation of an email: no account behind it is revealed. */
  invitee: boolean;
  teamIds: string[];
  createdAt: string;
}

/**
 * The user id an invitation shows until it is accepted: derived from the membership's id, so it
 * is stable across reads, ties the email to no account, and names no user (`GET /users/:id` 404).
 */
export const inviteeUserId = (membershipId: string): string => derivedId('user', `invitee:${membershipId}`);

/**
 * The user of a membership as its reader may see it: an account (`view.details`: the whole user,
 * for the user itself and site administrators; else its public face and the membership's email),
 * or an invitee (the email the invitation was sent to, and nothing else).
 */
export type MemberUser =
  { kind: 'account'; view: UserView; email: string } | { kind: 'invitee'; id: string; email: string };

export interface InviteInput {
  email: string;
  teamIds: string[];
}

/** An invitation body: `attributes.email` and, optionally, `relationships.teams.data[]`. */
export function parseInvite(attributes: Record<string, unknown>, relationships: Record<string, unknown>): InviteInput {
  const problems = new Problems();
  const email = attributes.email;
  if (email === undefined || email === null || email === '')
    problems.add('/data/attributes/email', "Email can't be blank");
  else if (typeof email !== 'string' || !isEmail(email)) problems.add('/data/attributes/email', 'Email is invalid');
  const teamIds: string[] = [];
  const teams = relationships.teams as { data?: unknown } | undefined | null;
  if (teams !== undefined && teams !== null) {
    const data = teams.data;
    if (!Array.isArray(data)) problems.add('/data/relationships/teams/data', 'Teams must be an array of teams');
    else {
      data.forEach((item, i) => {
        const ref = item as { type?: unknown; id?: unknown } | null;
        if (ref?.type !== 'teams' || typeof ref.id !== 'string' || ref.id === '') {
          problems.add(`/data/relationships/teams/data/${i}`, 'each team must be {"type":"teams","id":TEAM_ID}');
        } else if (!teamIds.includes(ref.id)) teamIds.push(ref.id);
      });
    }
  }
  problems.throwIfAny();
  return { email: email as string, teamIds };
}

/** The ids of a `{"data":[{"type":TYPE,"id":ID},...]}` relationship body: non-empty, all of `type`. */
export function relationshipIds(body: Record<string, unknown> | null, type: string, what: string): string[] {
  const data = body?.data;
  const wrong = (detail: string, pointer: string) =>
    new BerthError([{ status: 422, title: 'invalid attribute', detail, pointer }]);
  if (!Array.isArray(data) || data.length === 0) throw wrong(`data must be a non-empty array of ${type}`, '/data');
  return data.map((item, i) => {
    const ref = item as { type?: unknown; id?: unknown } | null;
    if (ref?.type !== type || typeof ref.id !== 'string' || ref.id === '') {
      throw wrong(`each item must be {"type":"${type}","id":${what}}`, `/data/${i}`);
    }
    return ref.id;
  });
}
