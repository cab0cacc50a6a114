import type { Tx } from '../../store/transaction.js';

/**
 * A workspace's integer key as a subquery: the `workspace_seq` of every tag and binding row
 * written for it (the tag filters combine these; see migration 012).
 */
export function workspaceSeq(tx: Tx, workspaceId: string) {
  return tx.selectFrom('workspaces').select('workspaces.seq').where('workspaces.id', '=', workspaceId);
}

/**
 * The columns that tie a new tag binding row to its workspace: its id, its integer key and its
 * project (migration 013; `moveBindings` keeps the project in step).
 */
export function bindingOwner(tx: Tx, workspaceId: string) {
  return {
    workspace_id: workspaceId,
    workspace_seq: workspaceSeq(tx, workspaceId),
    project_id: tx.selectFrom('workspaces').select('workspaces.project_id').where('workspaces.id', '=', workspaceId),
  };
}

/** After workspaces change project: their bindings follow (what `filter[tagged]` counts by). */
export async function moveBindings(tx: Tx, workspaceIds: string[], projectId: string): Promise<void> {
  if (workspaceIds.length === 0) return;
  await tx
    .updateTable('workspace_tag_bindings')
    .set({ project_id: projectId })
    .where('workspace_id', 'in', workspaceIds)
    .execute();
}
