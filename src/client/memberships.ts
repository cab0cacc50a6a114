import { BerthError } from '../domain/common/errors.js';
import type { BerthClient, ListAllOptions } from './client.js';
import type { Resource, SingleResult } from './jsonapi.js';

const enc = encodeURIComponent;

/** An organization membership with its user and teams, as the CLI shows it. */
export interface Member {
  membership: Resource;
  username: string | null;
  teams: string[];
}

function related(m: Resource, name: string): string[] {
  const data = m.relationships?.[name]?.data;
  if (!data) return [];
  return (Array.isArray(data) ? data : [data]).map((d) => d.id);
}

/** Organization memberships: list, invite, remove, accept. */
export function membershipsApi(client: BerthClient) {
  const api = {
    /** Every membership of the organization (all pages), with usernames and team names. */
    list: async (
      org: string,
      filter: { status?: string; q?: string; email?: string } = {},
      options: ListAllOptions = {},
    ): Promise<Member[]> => {
      const { data, included } = await client.listPages(
        `/organizations/${enc(org)}/organization-memberships`,
        { include: 'user,teams', 'filter[status]': filter.status, q: filter.q, 'filter[email]': filter.email },
        options,
      );
      const name = (type: string, id: string, attr: string) =>
        included.find((r) => r.type === type && r.id === id)?.attributes[attr] as string | undefined;
      return data.map((m) => ({
        membership: m,
        username: name('users', related(m, 'user')[0] ?? '', 'username') ?? null,
        teams: related(m, 'teams').map((id) => name('teams', id, 'name') ?? id),
      }));
    },
    invite: async (org: string, email: string, teamIds: string[]): Promise<SingleResult> =>
      (
        await client.request<SingleResult>('POST', `/organizations/${enc(org)}/organization-memberships`, {
          body: {
            data: {
              type: 'organization-memberships',
              attributes: { email },
              relationships: { teams: { data: teamIds.map((id) => ({ type: 'teams', id })) } },
            },
          },
        })
      ).body!,
    remove: (id: string) => client.delete(`/organization-memberships/${enc(id)}`),
    accept: async (id: string): Promise<SingleResult> =>
      (await client.request<SingleResult>('POST', `/organization-memberships/${enc(id)}/actions/accept`)).body!,
    /** The caller's own memberships, in every organization. */
    own: async (): Promise<Resource[]> => client.listAll('/organization-memberships'),
    /** A member of `org` by `ou-` id, email or username. */
    resolve: async (org: string, ref: string): Promise<Member> => {
      const members = await api.list(org);
      const lower = ref.toLowerCase();
      const found = members.find(
        (m) =>
          m.membership.id === ref ||
          m.username === ref ||
          String(m.membership.attributes.email).toLowerCase() === lower,
      );
      if (!found)
        throw new BerthError([{ status: 404, title: 'not found', detail: `${ref} is not a member of ${org}` }]);
      return found;
    },
  };
  return api;
}
