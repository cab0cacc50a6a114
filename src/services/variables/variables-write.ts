import { randomBytes } from 'node:crypto';
import { invalid } from '../../domain/common/errors.js';
import { newId } from '../../domain/common/ids.js';
import {
  checkVariable,
  keyTakenDetail,
  mergeVariable,
  type Variable,
  type VariableFields,
  type VariableInput,
} from '../../domain/variables/variable.js';
import { writeTransaction, type Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import type { WorkspaceRef } from '../workspaces/workspaces-read.js';
import { inOrganizationOf, inWorkspaceOrganization } from '../write-scope.js';
import { variableForAccess, workspaceForVariables } from './variable-access.js';
import { fieldsOf, toVariable } from './variables.js';
import { variableColumns } from './variable-columns.js';
import { storedValue } from './sealed-value.js';

/**
 * Creating, changing and deleting workspace variables: each one write transaction, checked
 * whole before anything is written (a 422 per broken rule, nothing stored). The request's audit
 * record names the variable by its key; no value is ever recorded or put in a message. A
 * sensitive value is stored sealed (sealed-value.ts).
 */

/** A new version id (HCP's `version-id`: it changes on every update). */
const newVersionId = () => randomBytes(18).toString('hex');

async function refuseTakenKey(tx: Tx, workspaceId: string, next: VariableFields, exceptId?: string): Promise<void> {
  let q = tx
    .selectFrom('workspace_variables')
    .select('id')
    .where('workspace_id', '=', workspaceId)
    .where('category', '=', next.category)
    .where('key', '=', next.key);
  if (exceptId) q = q.where('id', '!=', exceptId);
  if (await q.executeTakeFirst()) throw invalid('/data/attributes/key', keyTakenDetail(next.key, next.category));
}

export async function createVariable(ctx: ServiceContext, ref: WorkspaceRef, input: VariableInput): Promise<Variable> {
  return writeTransaction(inWorkspaceOrganization(ctx, ref), async (tx) => {
    const { row: ws } = await workspaceForVariables(ctx, ref, 'write', tx);
    const next = mergeVariable(input);
    checkVariable(next);
    await refuseTakenKey(tx, ws.id, next);
    const now = ctx.clock.now().toISOString();
    const id = newId('var');
    await tx
      .insertInto('workspace_variables')
      .values({
        id,
        workspace_id: ws.id,
        ...variableColumns(next),
        ...(await storedValue(ctx, tx, 'workspace_variables', id, next, input.value)),
        version_id: newVersionId(),
        created_at: now,
        updated_at: now,
      })
      .execute();
    const row = await tx.selectFrom('workspace_variables').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    return toVariable(row, ws);
  });
}

/** The variable `id`, of the workspace `workspaceId` when the path names one. */
export interface VariableAddress {
  id: string;
  workspaceId?: string;
}

export async function updateVariable(
  ctx: ServiceContext,
  at: VariableAddress,
  input: VariableInput,
): Promise<Variable> {
  return writeTransaction(inOrganizationOf(ctx, 'workspace_variables', at.id), async (tx) => {
    const { variable, workspace } = await variableForAccess(ctx, at.id, 'write', at.workspaceId, tx);
    const current = fieldsOf(variable);
    const next = mergeVariable(input, current);
    checkVariable(next, current);
    await refuseTakenKey(tx, workspace.id, next, variable.id);
    await tx
      .updateTable('workspace_variables')
      .set({
        ...variableColumns(next),
        ...(await storedValue(ctx, tx, 'workspace_variables', variable.id, next, input.value, variable)),
        version_id: newVersionId(),
        updated_at: ctx.clock.now().toISOString(),
      })
      .where('id', '=', variable.id)
      .execute();
    const row = await tx
      .selectFrom('workspace_variables')
      .selectAll()
      .where('id', '=', variable.id)
      .executeTakeFirstOrThrow();
    return toVariable(row, workspace);
  });
}

export async function deleteVariable(ctx: ServiceContext, at: VariableAddress): Promise<void> {
  await writeTransaction(inOrganizationOf(ctx, 'workspace_variables', at.id), async (tx) => {
    const { variable } = await variableForAccess(ctx, at.id, 'write', at.workspaceId, tx);
    await tx.deleteFrom('workspace_variables').where('id', '=', variable.id).execute();
  });
}
