import type { Variable } from '../../domain/variables/variable.js';
import { badRequest } from '../../domain/common/errors.js';
import type { Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import type { WorkspaceRef } from '../workspaces/workspaces-read.js';
import { variableForAccess, workspaceForVariables } from './variable-access.js';
import { toVariable } from './variables.js';

/** Every variable of a workspace, in the order they were created (not paginated, as HCP). */
export async function listVariables(ctx: ServiceContext, ref: WorkspaceRef, db: Tx = ctx.db): Promise<Variable[]> {
  const { row } = await workspaceForVariables(ctx, ref, 'read', db);
  const rows = await db
    .selectFrom('workspace_variables')
    .selectAll()
    .where('workspace_id', '=', row.id)
    .orderBy('seq')
    .execute();
  return rows.map((r) => toVariable(r, row));
}

/**
 * The older `GET /vars?filter[organization][name]=&filter[workspace][name]=`: both filters are
 * required (400 naming the missing one).
 */
export async function listVariablesByNames(
  ctx: ServiceContext,
  organization: string | undefined,
  workspace: string | undefined,
): Promise<Variable[]> {
  for (const [name, value] of [
    ['filter[organization][name]', organization],
    ['filter[workspace][name]', workspace],
  ] as const)
    if (!value) throw badRequest(`${name} is required`, { parameter: name });
  return listVariables(ctx, { organization: organization!, name: workspace! });
}

/** One variable of a workspace. */
export async function getVariable(ctx: ServiceContext, workspaceId: string, id: string): Promise<Variable> {
  const { variable, workspace } = await variableForAccess(ctx, id, 'read', workspaceId);
  return toVariable(variable, workspace);
}
