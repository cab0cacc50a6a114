import type { BerthClient } from '../../client/client.js';
import { WorkspacesClient } from '../../client/workspaces.js';
import { usageError } from '../common/prompts.js';
import { parseWorkspaceArg } from './resolve-workspace.js';

/**
 * The workspaces of `berth workspace triggers add|remove WORKSPACE SOURCE...`: the workspace by
 * id, NAME (with --org) or ORG/NAME, and each source the same way, a bare NAME in the workspace's
 * organization (run triggers connect workspaces of one organization).
 */
export async function triggerWorkspaces(
  client: BerthClient,
  positionals: string[],
  org: string | undefined,
  verb: 'add' | 'remove',
): Promise<{ workspace: { id: string; name: string }; sources: { id: string; name: string }[] }> {
  const [target, ...sources] = positionals;
  if (!target || sources.length === 0)
    throw usageError(
      `give the workspace and at least one source: berth workspace triggers ${verb} WORKSPACE SOURCE ...`,
    );
  const workspaces = new WorkspacesClient(client);
  const ws = (await workspaces.get(parseWorkspaceArg(target, org))).data;
  const orgOf = ws.relationships?.organization?.data;
  const home = orgOf && !Array.isArray(orgOf) ? orgOf.id : org;
  const found = [];
  for (const s of sources) {
    const doc = (await workspaces.get(parseWorkspaceArg(s, home ?? org))).data;
    found.push({ id: doc.id, name: String(doc.attributes.name) });
  }
  return { workspace: { id: ws.id, name: String(ws.attributes.name) }, sources: found };
}
