import type { BerthClient } from '../../client/client.js';
import type { Resource } from '../../client/jsonapi.js';
import type { UserAttributes } from '../../client/resources.js';
import { tokensApi } from '../../client/teams.js';
import { BerthError } from '../../domain/common/errors.js';
import { usageError } from '../common/prompts.js';

/** What `GET /account/details` says the caller is: a user (id, username), or why it is none. */
export type Caller = { user: Resource<UserAttributes> } | { user: null; why: string };

/**
 * The caller's account (`GET /account/details`, as HCP Terraform answers it): the user behind a
 * user token (local mode without a token: the site-administrator user `admin`). A team or
 * organization token answers a service account, and a token of no user a 404: neither is a user.
 */
export async function callerAccount(client: BerthClient): Promise<Caller> {
  try {
    const { data } = await tokensApi(client).accountDetails();
    if (data.attributes['is-service-account'] === true) {
      const resource = data.relationships?.['authenticated-resource']?.data;
      const of = resource && !Array.isArray(resource) ? `${resource.type.replace(/s$/, '')} ${resource.id}` : null;
      return { user: null, why: `this token acts as ${of ?? 'a service account'}, not as a user` };
    }
    return { user: data };
  } catch (err) {
    if (err instanceof BerthError && err.status === 404) return { user: null, why: 'this token acts as no user' };
    throw err;
  }
}

/**
 * The user a user token is for: `name` (`--user`), else the caller. The caller's own name is
 * resolved through its account, so a user needs no site-administrator rights to name itself;
 * another user's name is looked up among the instance's users (site administrators only).
 */
export async function tokenUser(client: BerthClient, name: string | undefined): Promise<Resource<UserAttributes>> {
  const caller = await callerAccount(client);
  if (name === undefined) {
    if (caller.user) return caller.user;
    throw usageError(`say whose token to create: --user NAME, --team TEAM, --org ORG or --site-admin (${caller.why})`);
  }
  if (caller.user && caller.user.attributes.username === name) return caller.user;
  return client.users.byName(name);
}
