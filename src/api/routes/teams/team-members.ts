import { Hono, type Context } from 'hono';
import type { Team } from '../../../domain/teams/team.js';
import { relationshipIds, type OrganizationMembership } from '../../../domain/organizations/organization-membership.js';
import { seesUserDetails } from '../../../services/identity/users.js';
import { changeTeamMembers, teamMemberDetails, type MemberRefs } from '../../../services/teams/team-members.js';
import { readJson } from '../../body.js';
import { sendLargeResource, type ResourceObject } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { includesOf } from '../../query.js';
import { serializeMembership } from '../../serializers/organization-membership.js';
import { serializeTeam } from '../../serializers/team.js';
import { serializeUserView } from '../../serializers/user.js';

/**
 * A team document with its members: `relationships.organization-memberships`, and
 * `include=users` / `include=organization-memberships` (what go-tfe's TeamMembers reads).
 */
export async function sendTeamWithMembers(c: Context<AppEnv>, team: Team): Promise<Response> {
  const inc = includesOf(c, ['users', 'organization_memberships']);
  const details = await teamMemberDetails(c.get('ctx'), team, {
    users: inc.has('users'),
    memberships: inc.has('organization_memberships'),
  });
  const doc = serializeTeam(team);
  doc.relationships = {
    ...doc.relationships,
    'organization-memberships': { data: details.membershipIds.map((id) => ({ id, type: 'organization-memberships' })) },
  };
  return sendLargeResource(
    c,
    doc,
    includedMembers(
      // Whole to themselves and site administrators; to anyone else their public face, as in
      // every other list of users (HCP Terraform shows a user's email only to that user).
      details.users.map((user) => serializeUserView({ user, details: seesUserDetails(c.get('ctx'), user.id) })),
      details.memberships,
    ),
  );
}

/** The users, then the memberships a slice at a time, serialized as they come. */
async function* includedMembers(
  users: ResourceObject[],
  memberships: AsyncIterable<OrganizationMembership[]>,
): AsyncIterable<ResourceObject[]> {
  for (let start = 0; start < users.length; start += 100) yield users.slice(start, start + 100);
  for await (const slice of memberships) yield slice.map(serializeMembership);
}

/**
 * Team membership, by username (`{"data":[{"type":"users","id":"alice"}]}`, as HCP Terraform
 * names users here) or by organization membership id
 * (`{"data":[{"type":"organization-memberships","id":"ou-..."}]}`). 204, all-or-nothing.
 */
export function teamMemberRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  const byUsername = async (c: Context<AppEnv>): Promise<MemberRefs> => ({
    usernames: relationshipIds(await readJson(c), 'users', 'USERNAME'),
  });
  const byMembership = async (c: Context<AppEnv>): Promise<MemberRefs> => ({
    membershipIds: relationshipIds(await readJson(c), 'organization-memberships', 'MEMBERSHIP_ID'),
  });

  for (const [path, refs] of [
    ['/teams/:id/relationships/users', byUsername],
    ['/teams/:id/relationships/organization-memberships', byMembership],
  ] as const) {
    r.post(path, async (c) => {
      await changeTeamMembers(c.get('ctx'), c.req.param('id'), await refs(c), 'add');
      return c.body(null, 204);
    });
    r.delete(path, async (c) => {
      await changeTeamMembers(c.get('ctx'), c.req.param('id'), await refs(c), 'remove');
      return c.body(null, 204);
    });
  }

  return r;
}
