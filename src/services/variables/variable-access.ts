import { BerthError, notAuthorized, notFound } from '../../domain/common/errors.js';
import { can, type OrgFacts } from '../../domain/permissions/policy.js';
import type { Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { readableWorkspace, type WorkspaceRef, type WorkspaceRow } from '../workspaces/workspaces-read.js';
import type { VariableRow } from './variables.js';

/**
 * Who may read and change a workspace's variables (HCP Terraform's workspace permissions):
 * reading needs `read-variables` (team access `read` and up, custom `variables: read`), changing
 * needs `write-variables` (`write`, `admin`, custom `variables: write`); owners, the organization
 * token, "manage workspaces"/"manage projects" and site administrators may both. A caller that
 * cannot read the workspace gets the 404 of an unknown workspace; one that can read it but not its
 * variables (or not change them) gets berth's not-authorized 404.
 */

export type VariableNeed = 'read' | 'write';

/** The workspace, checked for `need` on its variables. */
export async function workspaceForVariables(
  ctx: ServiceContext,
  ref: WorkspaceRef,
  need: VariableNeed,
  db: Tx = ctx.db,
): Promise<{ row: WorkspaceRow; facts: OrgFacts }> {
  const { row, facts } = await readableWorkspace(ctx, ref, db);
  mayHandleVariables(ctx, row, facts, need);
  return { row, facts };
}

function mayHandleVariables(ctx: ServiceContext, row: WorkspaceRow, facts: OrgFacts, need: VariableNeed): void {
  const action = need === 'read' ? 'workspace:read-variables' : 'workspace:update-variables';
  if (!can(ctx.actor, action, facts))
    throw notAuthorized(`${need === 'read' ? 'read' : 'change'} the variables of workspace ${row.name} (${row.id})`);
}

/**
 * The variable `id` (of the workspace `workspaceId` when the path names one) and its workspace,
 * checked for `need`. A variable whose workspace the caller cannot read is unknown to it.
 */
export async function variableForAccess(
  ctx: ServiceContext,
  id: string,
  need: VariableNeed,
  workspaceId: string | undefined,
  db: Tx = ctx.db,
): Promise<{ variable: VariableRow; workspace: WorkspaceRow }> {
  const missing = () => notFound(`variable ${id} not found`);
  if (workspaceId !== undefined) {
    // The path's workspace first: an unknown or unreadable one is its own 404.
    const { row } = await workspaceForVariables(ctx, { id: workspaceId }, need, db);
    const variable = await db
      .selectFrom('workspace_variables')
      .selectAll()
      .where('id', '=', id)
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirst();
    if (!variable) throw missing();
    return { variable, workspace: row };
  }
  const variable = await db.selectFrom('workspace_variables').selectAll().where('id', '=', id).executeTakeFirst();
  if (!variable) throw missing();
  const readable = await readableWorkspace(ctx, { id: variable.workspace_id }, db).catch((err: unknown) => {
    if (err instanceof BerthError && err.status === 404) return null;
    throw err;
  });
  if (!readable) throw missing();
  mayHandleVariables(ctx, readable.row, readable.facts, need);
  return { variable, workspace: readable.row };
}
