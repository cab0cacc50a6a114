import { randomBytes } from 'node:crypto';
import type { Selectable } from 'kysely';
import { invalid, notFound } from '../../domain/common/errors.js';
import { newId } from '../../domain/common/ids.js';
import {
  checkVariable,
  mergeVariable,
  type VariableCategory,
  type VariableFields,
} from '../../domain/variables/variable.js';
import { VARSET_KEY_TAKEN, type VariableInput, type VarsetVariable } from '../../domain/variables/varset.js';
import type { VarsetVariablesTable } from '../../store/schema.js';
import { readTransaction, writeTransaction, type Tx } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { inOrganizationOf } from '../write-scope.js';
import { refuseGlobalKeyClash } from './varset-global-keys.js';
import { manageableVarset, readableVarset } from './varsets-read.js';
import { shownVariable, variableColumns } from './variable-columns.js';
import { clearOrEmpty, storedValue } from './sealed-value.js';

type Row = Selectable<VarsetVariablesTable>;

/** A new `version_id`: every create and update of a variable gets one. */
const newVersionId = () => randomBytes(18).toString('hex');

/** A stored variable as the API may show it: a sensitive value never leaves. */
export function toVariable(r: Row): VarsetVariable {
  return {
    id: r.id,
    varsetId: r.varset_id,
    ...shownVariable(r),
    versionId: r.version_id,
    createdAt: r.created_at,
  };
}

const TAKEN = VARSET_KEY_TAKEN;

async function keyTaken(tx: Tx, varsetId: string, key: string, category: string, except?: string): Promise<boolean> {
  let q = tx
    .selectFrom('varset_variables')
    .select('id')
    .where('varset_id', '=', varsetId)
    .where('category', '=', category)
    .where('key', '=', key);
  if (except) q = q.where('id', '!=', except);
  return (await q.executeTakeFirst()) !== undefined;
}

/** Adds complete variable definitions to a set (its create and update bodies, and POST vars); sensitive values sealed. */
export async function insertVariables(
  ctx: ServiceContext,
  tx: Tx,
  varsetId: string,
  vars: VariableInput[],
  now: string,
): Promise<string[]> {
  const ids: string[] = [];
  for (const [i, v] of vars.entries()) {
    if (await keyTaken(tx, varsetId, v.key!, v.category!))
      throw invalid(
        vars.length === 1 && i === 0 ? '/data/attributes/key' : `/data/relationships/vars/data/${i}/attributes/key`,
        TAKEN,
      );
    const id = newId('var');
    const fields: VariableFields = {
      key: v.key!,
      value: v.value ?? '',
      description: v.description ?? null,
      category: v.category!,
      hcl: v.hcl ?? false,
      sensitive: v.sensitive ?? false,
    };
    await tx
      .insertInto('varset_variables')
      .values({
        id,
        varset_id: varsetId,
        ...variableColumns(fields),
        ...(await storedValue(ctx, tx, 'varset_variables', id, fields, v.value)),
        version_id: newVersionId(),
        created_at: now,
      })
      .execute();
    ids.push(id);
  }
  return ids;
}

async function variableRow(tx: Tx, varsetId: string, id: string): Promise<Row> {
  const row = await tx
    .selectFrom('varset_variables')
    .selectAll()
    .where('id', '=', id)
    .where('varset_id', '=', varsetId)
    .executeTakeFirst();
  if (!row) throw notFound(`variable ${id} not found`);
  return row;
}

export async function listVarsetVariables(ctx: ServiceContext, varsetId: string): Promise<VarsetVariable[]> {
  return readTransaction(ctx.db, async (tx) => {
    await readableVarset(tx, ctx.actor, varsetId);
    const rows = await tx
      .selectFrom('varset_variables')
      .selectAll()
      .where('varset_id', '=', varsetId)
      .orderBy('seq')
      .execute();
    return rows.map(toVariable);
  });
}

export async function getVarsetVariable(ctx: ServiceContext, varsetId: string, id: string): Promise<VarsetVariable> {
  return readTransaction(ctx.db, async (tx) => {
    await readableVarset(tx, ctx.actor, varsetId);
    return toVariable(await variableRow(tx, varsetId, id));
  });
}

export async function createVarsetVariable(
  ctx: ServiceContext,
  varsetId: string,
  input: VariableInput,
): Promise<VarsetVariable> {
  return writeTransaction(inOrganizationOf(ctx, 'varsets', varsetId), async (tx) => {
    await manageableVarset(ctx, tx, varsetId);
    const now = ctx.clock.now().toISOString();
    const [id] = await insertVariables(ctx, tx, varsetId, [input], now);
    await refuseGlobalKeyClash(
      tx,
      varsetId,
      [{ key: input.key!, category: input.category! }],
      () => '/data/attributes/key',
    );
    await tx.updateTable('varsets').set({ updated_at: now }).where('id', '=', varsetId).execute();
    return toVariable(await variableRow(tx, varsetId, id));
  });
}

export async function updateVarsetVariable(
  ctx: ServiceContext,
  varsetId: string,
  id: string,
  input: VariableInput,
): Promise<VarsetVariable> {
  return writeTransaction(inOrganizationOf(ctx, 'varsets', varsetId), async (tx) => {
    await manageableVarset(ctx, tx, varsetId);
    const row = await variableRow(tx, varsetId, id);
    const current: VariableFields = {
      key: row.key,
      value: clearOrEmpty(row),
      description: row.description,
      category: row.category as VariableCategory,
      hcl: row.hcl === 1,
      sensitive: row.sensitive === 1,
    };
    const next = mergeVariable(input, current);
    checkVariable(next, current);
    if (
      (next.key !== row.key || next.category !== row.category) &&
      (await keyTaken(tx, varsetId, next.key, next.category, id))
    )
      throw invalid('/data/attributes/key', TAKEN);
    const now = ctx.clock.now().toISOString();
    await tx
      .updateTable('varset_variables')
      .set({
        ...variableColumns(next),
        ...(await storedValue(ctx, tx, 'varset_variables', id, next, input.value, row)),
        version_id: newVersionId(),
      })
      .where('id', '=', id)
      .execute();
    if (next.key !== row.key || next.category !== row.category)
      await refuseGlobalKeyClash(tx, varsetId, [next], () => '/data/attributes/key');
    await tx.updateTable('varsets').set({ updated_at: now }).where('id', '=', varsetId).execute();
    return toVariable(await variableRow(tx, varsetId, id));
  });
}

export async function deleteVarsetVariable(ctx: ServiceContext, varsetId: string, id: string): Promise<void> {
  await writeTransaction(inOrganizationOf(ctx, 'varsets', varsetId), async (tx) => {
    await manageableVarset(ctx, tx, varsetId);
    await variableRow(tx, varsetId, id);
    await tx.deleteFrom('varset_variables').where('id', '=', id).execute();
    await tx
      .updateTable('varsets')
      .set({ updated_at: ctx.clock.now().toISOString() })
      .where('id', '=', varsetId)
      .execute();
  });
}
