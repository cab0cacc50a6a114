import { BerthError } from '../domain/common/errors.js';
import type { BerthClient, ListAllOptions } from './client.js';
import { resourceBody, type Resource, type SingleResult } from './jsonapi.js';
import type { IdentityAttributes, TeamAttributes, TokenAttributes, UserAttributes } from './resources.js';

const enc = encodeURIComponent;

/** Teams, their members and tokens, organization tokens, and whoami. */
export function teamsApi(client: BerthClient) {
  const api = {
    list: (org: string, options: ListAllOptions = {}) =>
      client.listAll<TeamAttributes>(`/organizations/${enc(org)}/teams`, {}, options),
    get: (id: string) => client.get<TeamAttributes>(`/teams/${enc(id)}`),
    create: (org: string, attributes: Record<string, unknown>) =>
      client.create<TeamAttributes>(`/organizations/${enc(org)}/teams`, 'teams', attributes),
    update: (id: string, attributes: Record<string, unknown>) =>
      client.update<TeamAttributes>(`/teams/${enc(id)}`, 'teams', attributes),
    delete: (id: string) => client.delete(`/teams/${enc(id)}`),
    addMembers: (id: string, usernames: string[]) =>
      client.request('POST', `/teams/${enc(id)}/relationships/users`, {
        body: { data: usernames.map((u) => ({ type: 'users', id: u })) },
      }),
    removeMembers: (id: string, usernames: string[]) =>
      client.request('DELETE', `/teams/${enc(id)}/relationships/users`, {
        body: { data: usernames.map((u) => ({ type: 'users', id: u })) },
      }),
    /**
     * Without a description: the team's legacy token (replaces the previous one). With one: an
     * additional token, the description unique within the team.
     */
    createToken: async (id: string, options: { description?: string; expiredAt?: string } = {}) =>
      (
        await client.request<SingleResult<TokenAttributes>>(
          'POST',
          `/teams/${enc(id)}/authentication-token${options.description === undefined ? '' : 's'}`,
          {
            body: resourceBody('authentication-tokens', {
              description: options.description,
              'expired-at': options.expiredAt,
            }),
          },
        )
      ).body!,
    /** The team's tokens (never their secrets). */
    listTokens: (id: string, options: ListAllOptions = {}) =>
      client.listAll(`/teams/${enc(id)}/authentication-tokens`, {}, options),
    /** A team by `team-` id, or by name within `org`. */
    resolve: async (ref: string, org: string | undefined): Promise<Resource<TeamAttributes>> => {
      if (/^team-[A-Za-z0-9]{16}$/.test(ref)) return (await api.get(ref)).data;
      if (!org)
        throw new BerthError([
          { status: 404, title: 'not found', detail: `team ${ref}: pass a team- id, or --org to find it by name` },
        ]);
      const found = (await api.list(org)).find((t) => t.attributes.name === ref);
      if (!found)
        throw new BerthError([
          { status: 404, title: 'not found', detail: `team ${ref} not found in organization ${org}` },
        ]);
      return found;
    },
  };
  return api;
}

export function tokensApi(client: BerthClient) {
  return {
    createForOrganization: async (org: string, description?: string, expiredAt?: string) =>
      (
        await client.request<SingleResult<TokenAttributes>>('POST', `/organizations/${enc(org)}/authentication-token`, {
          body: resourceBody('authentication-tokens', { description, 'expired-at': expiredAt }),
        })
      ).body!,
    listForUser: (userId: string, options: ListAllOptions = {}) =>
      client.listAll<TokenAttributes>(`/users/${enc(userId)}/authentication-tokens`, {}, options),
    revoke: (id: string) => client.delete(`/authentication-tokens/${enc(id)}`),
    whoami: () => client.get<IdentityAttributes>('/whoami'),
    /** The caller's account (HCP Terraform's Account API): a user, or a service account for a team or organization token. */
    accountDetails: () => client.get<UserAttributes>('/account/details'),
  };
}
