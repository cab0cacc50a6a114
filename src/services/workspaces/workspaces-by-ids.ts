import { can, scoped, type OrgFacts } from '../../domain/permissions/policy.js';
import type { Workspace } from '../../domain/workspaces/workspace.js';
import { orgFacts } from '../access.js';
import type { ServiceContext } from '../context.js';
import { completeWorkspaces, selectWorkspaces } from './workspaces-read.js';

/**
 * The workspaces of `ids` that the caller may read, in one read of their rows and one of each of
 * their parts (a list that sideloads the workspaces of its items: `include=workspace` of a page of
 * runs). Those the caller may not read, and ids of none, are left out.
 */
export async function readableWorkspacesByIds(ctx: ServiceContext, ids: string[]): Promise<Workspace[]> {
  const unique = [...new Set(ids)];
  if (unique.length === 0) return [];
  const rows = await selectWorkspaces(ctx.db).where('workspaces.id', 'in', unique).execute();
  const byOrg = new Map<string, typeof rows>();
  for (const r of rows) byOrg.set(r.organization_id, [...(byOrg.get(r.organization_id) ?? []), r]);
  const out: Workspace[] = [];
  for (const [organizationId, orgRows] of byOrg) {
    const facts: OrgFacts = await orgFacts(ctx.db, ctx.actor, organizationId);
    if (!can(ctx.actor, 'organization:read', facts)) continue;
    const readable = orgRows.filter((r) =>
      can(ctx.actor, 'workspace:read', scoped(facts, { projectId: r.project_id, workspaceId: r.id })),
    );
    out.push(...(await completeWorkspaces(ctx, ctx.db, readable, facts)));
  }
  return out;
}
