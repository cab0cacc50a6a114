import type { BerthClient } from './client.js';
import type { Resource } from './jsonapi.js';
import type { TeamAccessAttributes } from './resources.js';

const relationships = (teamId: string, kind: 'project' | 'workspace', id: string) => ({
  team: { data: { type: 'teams', id: teamId } },
  [kind]: { data: { type: `${kind}s`, id } },
});

/** `team-projects` and `team-workspaces`: team access to single projects and workspaces. */
export function teamAccessApi(client: BerthClient) {
  const list = (kind: 'project' | 'workspace', id: string) =>
    client.listAll<TeamAccessAttributes>(`/team-${kind}s`, { [`filter[${kind}][id]`]: id });
  return {
    list,
    /** The team's grant on the project or workspace, if any. */
    find: async (
      kind: 'project' | 'workspace',
      id: string,
      teamId: string,
    ): Promise<Resource<TeamAccessAttributes> | null> =>
      (await list(kind, id)).find((g) => (g.relationships?.team?.data as { id?: string } | undefined)?.id === teamId) ??
      null,
    create: (kind: 'project' | 'workspace', teamId: string, id: string, level: string) =>
      client.create<TeamAccessAttributes>(
        `/team-${kind}s`,
        `team-${kind}s`,
        { access: level },
        relationships(teamId, kind, id),
      ),
    update: (kind: 'project' | 'workspace', grantId: string, level: string) =>
      client.update<TeamAccessAttributes>(`/team-${kind}s/${grantId}`, `team-${kind}s`, { access: level }),
    delete: (kind: 'project' | 'workspace', grantId: string) => client.delete(`/team-${kind}s/${grantId}`),
  };
}
