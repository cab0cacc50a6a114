import type { BerthClient } from '../../client/client.js';
import { listAllProjects } from '../../client/projects.js';
import { teamAccessApi } from '../../client/team-access.js';
import { WorkspacesClient } from '../../client/workspaces.js';

/** One grant of a team on a project or a workspace, with the target's name. */
export interface TeamGrant {
  kind: 'project' | 'workspace';
  name: string;
  targetId: string;
  access: string;
  id: string;
}

/**
 * The project and workspace access a team has of its own, among the projects and workspaces of
 * the organization the caller can see (the API lists grants per project and per workspace).
 */
export async function teamGrants(client: BerthClient, org: string, teamId: string): Promise<TeamGrant[]> {
  const api = teamAccessApi(client);
  const rows: TeamGrant[] = [];
  const mine = (g: { relationships?: Record<string, { data?: unknown }> }) =>
    (g.relationships?.team?.data as { id?: string } | undefined)?.id === teamId;
  for (const p of await listAllProjects(client, org)) {
    for (const g of (await api.list('project', p.id)).filter(mine)) {
      rows.push({ kind: 'project', name: p.attributes.name, targetId: p.id, access: g.attributes.access, id: g.id });
    }
  }
  for (const w of await new WorkspacesClient(client).listAll(org)) {
    for (const g of (await api.list('workspace', w.id)).filter(mine)) {
      rows.push({ kind: 'workspace', name: w.attributes.name, targetId: w.id, access: g.attributes.access, id: g.id });
    }
  }
  return rows;
}
