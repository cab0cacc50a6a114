/** Names of related resources (projects, agent pools) for human output, read in as few requests as the API allows. */
import type { BerthClient } from '../../client/client.js';
import type { Resource } from '../../client/jsonapi.js';
import { getProject, listAllProjects } from '../../client/projects.js';
import { WorkspaceRelationsClient } from '../../client/relations.js';
import type { WorkspaceAttributes } from '../../client/resources.js';
import { AgentPoolsClient, WorkspacesClient } from '../../client/workspaces.js';
import { BerthError } from '../../domain/common/errors.js';

/**
 * The names of the projects of these workspaces (project id to name), for human output: one
 * project list per organization the workspaces belong to, not one request per workspace. Projects
 * the caller may not read are missing (their ids are shown instead).
 */
export async function projectNamesOf(client: BerthClient, workspaces: Resource[]): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const orgs = new Set<string>();
  for (const w of workspaces) {
    const org = w.relationships?.organization?.data;
    if (org && !Array.isArray(org)) orgs.add(org.id);
  }
  for (const org of orgs) {
    try {
      for (const p of await listAllProjects(client, org)) names.set(p.id, String(p.attributes.name));
    } catch (err) {
      if (!(err instanceof BerthError)) throw err;
    }
  }
  return names;
}

/** The project id an inherited tag binding names (`links.inherited-from`), or null for an own binding. */
export function inheritedFromId(t: Resource): string | null {
  const link = t.links?.['inherited-from'];
  return link ? link.replace(/^.*\//, '') : null;
}

/**
 * The names of the projects tag bindings are inherited from: `known` names first, then one read
 * per other project (bindings inherit from one project, so this is at most one request).
 */
export async function inheritedFromNames(
  client: BerthClient,
  tags: Resource[],
  known: Map<string, string> = new Map(),
): Promise<Map<string, string>> {
  const names = new Map(known);
  for (const id of new Set(tags.map(inheritedFromId))) {
    if (id === null || names.has(id)) continue;
    try {
      names.set(id, String((await getProject(client, id)).data.attributes.name));
    } catch (err) {
      if (!(err instanceof BerthError)) throw err;
    }
  }
  return names;
}

/**
 * The agent pool a workspace or project names (`agent-pool`, `default-agent-pool`), read once for
 * human output so that its name can be shown; null when there is none or it cannot be read.
 */
export async function agentPoolOf(client: BerthClient, r: Resource, relationship: string): Promise<Resource | null> {
  const ref = r.relationships?.[relationship]?.data;
  if (!ref || Array.isArray(ref)) return null;
  try {
    return (await new AgentPoolsClient(client).get(ref.id)).data;
  } catch (err) {
    if (err instanceof BerthError) return null;
    throw err;
  }
}

/**
 * The names of the workspaces a resource relates to (`relationships` of workspaces, e.g. an agent
 * pool's), for human output: one workspace list of the organization, read only when there are some.
 */
export async function workspaceNamesOf(
  client: BerthClient,
  r: Resource,
  relationships: string[],
): Promise<Map<string, string>> {
  const names = new Map<string, string>();
  const org = r.relationships?.organization?.data;
  const any = relationships.some((name) => {
    const d = r.relationships?.[name]?.data;
    return Array.isArray(d) && d.length > 0;
  });
  if (!any || !org || Array.isArray(org)) return names;
  try {
    for (const w of await new WorkspacesClient(client).listAll(org.id)) names.set(w.id, String(w.attributes.name));
  } catch (err) {
    if (!(err instanceof BerthError)) throw err;
  }
  return names;
}

/**
 * What a person's view of a workspace shows besides its document, by name: its SSH key and the
 * workspaces that may read its state (not read when every workspace of the organization may).
 * What the caller may not read is left out (the key shows as set, without its name).
 */
export async function workspaceExtras(
  client: BerthClient,
  ws: Resource<WorkspaceAttributes>,
): Promise<{ sshKey: string | null; remoteStateConsumers?: string[] }> {
  const key = ws.relationships?.['ssh-key']?.data;
  let sshKey: string | null = null;
  if (key && !Array.isArray(key)) {
    try {
      sshKey = String((await client.get(`/ssh-keys/${encodeURIComponent(key.id)}`)).data.attributes.name);
    } catch (err) {
      if (!(err instanceof BerthError)) throw err;
      sshKey = 'set (you may not read its name)';
    }
  }
  if (ws.attributes['global-remote-state']) return { sshKey };
  try {
    const consumers = await new WorkspaceRelationsClient(client).consumers({ id: ws.id });
    return { sshKey, remoteStateConsumers: consumers.map((c) => c.attributes.name) };
  } catch (err) {
    if (!(err instanceof BerthError)) throw err;
    return { sshKey };
  }
}
