import { conflict, forbidden, notFound } from '../../domain/common/errors.js';
import { can } from '../../domain/permissions/policy.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { describeRef, readableWorkspace, type WorkspaceRef } from './workspaces-read.js';
import { inWorkspaceOrganization } from '../write-scope.js';

export const LOCKED_DETAIL =
  'Workspace is currently locked. Workspace must be unlocked before it can be safely deleted';
export const MANAGING_RESOURCES_DETAIL = 'workspace cannot be safely deleted because it is still managing resources';

/**
 * Deletes the workspace row; foreign keys remove what belongs to it (tag bindings, flat tag
 * assignments, and the records later issues hang off it).
 */
async function remove(tx: Tx, id: string): Promise<void> {
  const result = await tx.deleteFrom('workspaces').where('id', '=', id).executeTakeFirst();
  if (Number(result.numDeletedRows) !== 1) throw conflict('workspace changed while deleting');
}

/** Deletes the workspace only when it is unlocked and manages no resources (409 otherwise). */
export async function safeDeleteWorkspace(ctx: ServiceContext, ref: WorkspaceRef): Promise<void> {
  await writeTransaction(inWorkspaceOrganization(ctx, ref), async (tx) => {
    const { row, facts } = await readableWorkspace(ctx, ref, tx);
    // The spec: 404 when the caller is not authorized to delete.
    if (!can(ctx.actor, 'workspace:delete', facts)) throw notFound(`workspace ${describeRef(ref)} not found`);
    if (row.locked === 1) throw conflict(LOCKED_DETAIL);
    if (row.resource_count > 0) throw conflict(MANAGING_RESOURCES_DETAIL);
    await remove(tx, row.id);
  });
}

/**
 * Force delete: no resource check. Owners (and organization tokens) always; workspace admins
 * only when the organization allows it; 403 for everyone else who can see the workspace.
 */
export async function forceDeleteWorkspace(ctx: ServiceContext, ref: WorkspaceRef): Promise<void> {
  await writeTransaction(inWorkspaceOrganization(ctx, ref), async (tx) => {
    const { row, facts } = await readableWorkspace(ctx, ref, tx);
    if (
      !can(ctx.actor, 'workspace:force-delete', facts, { allowForceDeleteWorkspaces: row.org_allow_force_delete === 1 })
    ) {
      throw forbidden('not authorized to force delete this workspace');
    }
    await remove(tx, row.id);
  });
}
