import type { BerthClient } from '../../client/client.js';
import { WorkspacesClient } from '../../client/workspaces.js';
import { parseWorkspaceArg } from './resolve-workspace.js';

/** The ids of WORKSPACE arguments (`ws-` ids as they are; names looked up through the API). */
export async function workspaceIds(client: BerthClient, args: string[], org: string | undefined): Promise<string[]> {
  const workspaces = new WorkspacesClient(client);
  const out: string[] = [];
  for (const arg of args) {
    const ref = parseWorkspaceArg(arg, org);
    out.push('id' in ref ? ref.id : (await workspaces.get(ref)).data.id);
  }
  return out;
}
