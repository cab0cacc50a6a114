import type { Organization } from '../domain/organization.js';
import type { Project } from '../domain/project.js';
import type { Workspace } from '../domain/workspace.js';
import { orgFacts } from './access.js';
import type { ServiceContext } from './context.js';
import { getOrganization } from './organizations.js';
import { findProjectRow, projectCounts, toProject } from './projects-read.js';
import { effectiveTagBindingsOf, type EffectiveTagBinding } from './workspaces-read.js';

/** The related records `include` asks for that have data yet (organization, project, tags). */
export interface WorkspaceIncludes {
  organizations: Organization[];
  projects: Project[];
  effectiveTagBindings?: Map<string, EffectiveTagBinding[]>;
}

export async function loadWorkspaceIncludes(ctx: ServiceContext, workspaces: Workspace[], include: Set<string>): Promise<WorkspaceIncludes> {
  const out: WorkspaceIncludes = { organizations: [], projects: [] };
  if (workspaces.length === 0) return out;
  if (include.has('organization')) {
    for (const name of new Set(workspaces.map((w) => w.organizationName))) out.organizations.push(await getOrganization(ctx, name));
  }
  if (include.has('project')) {
    const facts = await orgFacts(ctx.db, ctx.actor, workspaces[0]!.organizationId);
    for (const id of new Set(workspaces.map((w) => w.projectId))) {
      const row = await findProjectRow(ctx.db, id);
      if (row) out.projects.push(toProject(ctx, row, workspaces[0]!.organizationName, facts, await projectCounts(ctx.db, id)));
    }
  }
  if (include.has('effective_tag_bindings')) {
    out.effectiveTagBindings = await effectiveTagBindingsOf(ctx.db, workspaces.map((w) => ({ id: w.id, projectId: w.projectId })));
  }
  return out;
}
