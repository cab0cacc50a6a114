import { Hono, type Context } from 'hono';
import { badRequest } from '../../../domain/common/errors.js';
import {
  MEMBERSHIP_STATUSES,
  parseInvite,
  type MembershipStatus,
  type OrganizationMembership,
} from '../../../domain/organizations/organization-membership.js';
import * as memberships from '../../../services/organizations/organization-memberships.js';
import { readResource } from '../../body.js';
import { sendCollection, sendResource, type ResourceObject } from '../../documents.js';
import type { AppEnv } from '../../env.js';
import { includesOf, pageOf, queryParam } from '../../query.js';
import { serializeMemberUser, serializeMembership } from '../../serializers/organization-membership.js';
import { serializeTeam } from '../../serializers/team.js';

const INCLUDES = ['user', 'teams'] as const;

function statusOf(c: Context): MembershipStatus | undefined {
  const status = queryParam(c, 'filter[status]');
  if (status === undefined) return undefined;
  if (!(MEMBERSHIP_STATUSES as readonly string[]).includes(status)) {
    throw badRequest(`filter[status] must be one of: ${MEMBERSHIP_STATUSES.join(', ')}`, {
      parameter: 'filter[status]',
    });
  }
  return status as MembershipStatus;
}

/** `filter[email]`: repeated, or comma-separated. */
function emailsOf(c: Context): string[] {
  return (c.req.queries('filter[email]') ?? [])
    .flatMap((v) => v.split(','))
    .map((e) => e.trim())
    .filter((e) => e !== '');
}

async function included(c: Context<AppEnv>, items: OrganizationMembership[]): Promise<ResourceObject[]> {
  const inc = includesOf(c, INCLUDES);
  if (inc.size === 0) return [];
  const { users, teams } = await memberships.membershipIncludes(c.get('ctx'), items, {
    user: inc.has('user'),
    teams: inc.has('teams'),
  });
  return [...users.map(serializeMemberUser), ...teams.map(serializeTeam)];
}

/**
 * Organization memberships (HCP Terraform's API), and `POST .../actions/accept`, by which the
 * invited user accepts (a berth extension: HCP Terraform accepts in its web UI).
 */
export function organizationMembershipRoutes(): Hono<AppEnv> {
  const r = new Hono<AppEnv>();

  r.get('/organizations/:org/organization-memberships', async (c) => {
    const filter = { emails: emailsOf(c), status: statusOf(c), q: queryParam(c, 'q') };
    includesOf(c, INCLUDES);
    const paged = await memberships.listMemberships(c.get('ctx'), c.req.param('org'), pageOf(c), filter);
    return sendCollection(c, paged, serializeMembership, await included(c, paged.items));
  });

  r.post('/organizations/:org/organization-memberships', async (c) => {
    const body = await readResource(c, 'organization-memberships');
    const input = parseInvite(body.attributes, body.relationships);
    const m = await memberships.inviteMember(c.get('ctx'), c.req.param('org'), input);
    // The user is included unasked, as HCP Terraform does.
    const { users } = await memberships.membershipIncludes(c.get('ctx'), [m], { user: true, teams: false });
    return sendResource(c, serializeMembership(m), { status: 201, included: users.map(serializeMemberUser) });
  });

  r.get('/organization-memberships', async (c) => {
    includesOf(c, INCLUDES);
    const paged = await memberships.listOwnMemberships(c.get('ctx'), pageOf(c), statusOf(c));
    return sendCollection(c, paged, serializeMembership, await included(c, paged.items));
  });

  r.get('/organization-memberships/:id', async (c) => {
    includesOf(c, INCLUDES);
    const m = await memberships.getMembership(c.get('ctx'), c.req.param('id'));
    return sendResource(c, serializeMembership(m), { included: await included(c, [m]) });
  });

  r.delete('/organization-memberships/:id', async (c) => {
    await memberships.deleteMembership(c.get('ctx'), c.req.param('id'));
    return c.body(null, 204);
  });

  r.post('/organization-memberships/:id/actions/accept', async (c) => {
    const m = await memberships.acceptMembership(c.get('ctx'), c.req.param('id'));
    return sendResource(c, serializeMembership(m));
  });

  return r;
}
