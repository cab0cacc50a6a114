import type { BerthClient } from '../../client/client.js';
import { VarsetsClient } from '../../client/variables.js';
import { WorkspacesClient, resolveProjectId } from '../../client/workspaces.js';
import { Flags } from '../oclif.js';
import { usageError } from '../common/prompts.js';
import { parseWorkspaceArg } from '../workspaces/resolve-workspace.js';

/** `--workspace` and `--project`, each repeatable: what a variable set is applied to or removed from. */
export const varsetTargetFlags = {
  workspace: Flags.string({
    description: 'a workspace (NAME, ORG/NAME or ws- id); repeat for several',
    multiple: true,
  }),
  project: Flags.string({ description: 'a project (NAME or prj- id); repeat for several', multiple: true }),
};

export interface VarsetTargets {
  workspaces: { id: string; name: string }[];
  projects: { id: string; name: string }[];
}

/** The ids of the named workspaces and projects (a name that is not found stops before any change). */
export async function resolveTargets(
  client: BerthClient,
  org: string | undefined,
  flags: { workspace?: string[]; project?: string[] },
): Promise<VarsetTargets> {
  const ws = flags.workspace ?? [];
  const prj = flags.project ?? [];
  if (ws.length === 0 && prj.length === 0) throw usageError('name at least one --workspace or --project');
  const workspaces = [];
  for (const w of ws) {
    const found = await new WorkspacesClient(client).get(parseWorkspaceArg(w, org));
    workspaces.push({ id: found.data.id, name: String(found.data.attributes.name) });
  }
  const projects = [];
  for (const p of prj) {
    if (!org && !/^prj-/.test(p)) throw usageError(`cannot find project ${p} without an organization: pass --org`);
    projects.push({ id: await resolveProjectId(client, org ?? '', p), name: p });
  }
  return { workspaces, projects };
}

export function describeTargets(t: VarsetTargets): string {
  const parts = [...t.workspaces.map((w) => `workspace ${w.name}`), ...t.projects.map((p) => `project ${p.name}`)];
  return parts.join(', ');
}

/**
 * `varset apply` and `varset remove`: resolves the set and the named workspaces and projects (all
 * before any change), then relates them (`add`) or unrelates them (`remove`); with `dryRun`,
 * changes nothing. Answers what was (or would be) done, and its sentence for people.
 */
export async function changeVarsetTargets(
  client: BerthClient,
  org: string | undefined,
  set: string,
  flags: { workspace?: string[]; project?: string[]; 'dry-run'?: boolean },
  how: 'add' | 'remove',
): Promise<{ result: Record<string, unknown>; sentence: string }> {
  const sets = new VarsetsClient(client);
  const id = await sets.resolve(org, set);
  const targets = await resolveTargets(client, org, flags);
  const verb = how === 'add' ? 'apply' : 'remove';
  const where = `${how === 'add' ? 'to' : 'from'} ${describeTargets(targets)}`;
  if (flags['dry-run'])
    return {
      result: { dryRun: true, action: verb, set, ...targets },
      sentence: `Dry run (nothing changes): would ${verb} variable set ${set} ${where}.`,
    };
  for (const kind of ['workspaces', 'projects'] as const) {
    const ids = targets[kind].map((t) => t.id);
    if (ids.length > 0) await sets.relate(id, kind, ids, how);
  }
  return {
    result: { set, action: verb, ...targets },
    sentence: `${how === 'add' ? 'Applied' : 'Removed'} variable set ${set} ${where}.`,
  };
}
