import type { Tx } from '../../store/transaction.js';

/**
 * After workspaces move to `projectId`: a set owned by another project no longer applies to them
 * (a project-owned set applies only within its project, as in HCP Terraform), so they are taken
 * off such sets. Moving a workspace back does not apply the set again. Sets of the organization,
 * and sets owned by the destination, keep the workspaces.
 */
export async function leaveOtherProjectsSets(tx: Tx, workspaceIds: string[], projectId: string): Promise<void> {
  if (workspaceIds.length === 0) return;
  await tx
    .deleteFrom('varset_workspaces')
    .where('workspace_id', 'in', workspaceIds)
    .where('varset_id', 'in', (eb) =>
      eb
        .selectFrom('varsets')
        .select('varsets.id')
        .where('varsets.parent_project_id', 'is not', null)
        .where('varsets.parent_project_id', '!=', projectId),
    )
    .execute();
}
