import { forbidden, notFound } from '../../domain/common/errors.js';
import { can, scoped } from '../../domain/permissions/policy.js';
import { writeTransaction } from '../../store/transaction.js';
import { isProjectAdmin, orgFacts } from '../access.js';
import { moveBindings } from '../workspaces/workspace-seq.js';
import { leaveOtherProjectsSets } from '../variables/varset-ownership.js';
import type { ServiceContext } from '../context.js';
import { findProjectRow } from './projects-read.js';
import { inOrganizationOf } from '../write-scope.js';

/**
 * Moves workspaces into a project, all or nothing in one transaction. 404 when the destination
 * is unknown or the caller may not move workspaces into it; 403 naming every workspace that is
 * unknown, in another organization, unreadable, or whose project the caller may not move it out of.
 */
export async function moveWorkspacesToProject(
  ctx: ServiceContext,
  projectId: string,
  workspaceIds: string[],
): Promise<void> {
  await writeTransaction(inOrganizationOf(ctx, 'projects', projectId), async (tx) => {
    const project = await findProjectRow(tx, projectId);
    const missing = () => notFound(`project ${projectId} not found`);
    if (!project) throw missing();
    const facts = await orgFacts(tx, ctx.actor, project.organization_id);
    if (
      !can(ctx.actor, 'organization:read', facts) ||
      !can(ctx.actor, 'project:read', scoped(facts, { projectId: project.id }))
    )
      throw missing();
    if (!isProjectAdmin(ctx.actor, facts, project.id)) throw missing();
    const rows = await tx
      .selectFrom('workspaces')
      .select(['id', 'project_id'])
      .where('id', 'in', workspaceIds)
      .where('organization_id', '=', project.organization_id)
      .execute();
    const found = new Map(rows.map((r) => [r.id, r]));
    const refused = workspaceIds.filter((id) => {
      const row = found.get(id);
      if (!row) return true;
      // Read access to the workspace and admin on its current project.
      return (
        !can(ctx.actor, 'workspace:read', scoped(facts, { projectId: row.project_id, workspaceId: row.id })) ||
        !isProjectAdmin(ctx.actor, facts, row.project_id)
      );
    });
    if (refused.length > 0) {
      throw forbidden(`Workspace(s) not found, or you are not authorized to move them: ${refused.join(', ')}`);
    }
    const moving = rows.filter((r) => r.project_id !== project.id).map((r) => r.id);
    if (moving.length > 0) {
      await tx
        .updateTable('workspaces')
        .set({ project_id: project.id, updated_at: ctx.clock.now().toISOString() })
        .where('id', 'in', moving)
        .execute();
      await moveBindings(tx, moving, project.id);
      await leaveOtherProjectsSets(tx, moving, project.id);
    }
  });
}
