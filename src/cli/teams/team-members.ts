import type { BerthClient } from '../../client/client.js';
import type { Resource } from '../../client/jsonapi.js';
import type { TeamAttributes } from '../../client/resources.js';
import { teamsApi } from '../../client/teams.js';

/** Adds or removes users (by username) and returns the team as it is afterwards. */
export async function changeTeamMembers(
  client: BerthClient,
  teamRef: string,
  org: string | undefined,
  usernames: string[],
  mode: 'add' | 'remove',
): Promise<{ before: Resource<TeamAttributes>; after: Resource<TeamAttributes> }> {
  const api = teamsApi(client);
  const team = await api.resolve(teamRef, org);
  await (mode === 'add' ? api.addMembers(team.id, usernames) : api.removeMembers(team.id, usernames));
  return { before: team, after: (await api.get(team.id)).data };
}
