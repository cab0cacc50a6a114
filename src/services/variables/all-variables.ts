import type { ResolvedVariable, VariableCategory } from '../../domain/variables/variable-precedence.js';
import type { Variable } from '../../domain/variables/variable.js';
import type { VarsetVariable } from '../../domain/variables/varset.js';
import { readTransaction } from '../../store/transaction.js';
import type { ServiceContext } from '../context.js';
import { resolvedVariables } from './effective.js';
import { workspaceForVariables } from './variable-access.js';
import { toVariable } from './variables.js';
import { toVariable as toVarsetVariable } from './varset-variables.js';

/**
 * The variables that apply to a workspace after precedence (`GET /workspaces/:id/all-vars`,
 * go-tfe's `Variables.ListAll`, which the Terraform CLI's `cloud` backend reads for the operations
 * it runs locally, such as `terraform import`): for each key of each category, the one variable
 * whose value a run would get, the workspace's own or a set's (domain/variables/variable-precedence.ts
 * decides, as for runs). Sensitive values are withheld, as in every answer.
 */
export type AppliedVariable =
  | { source: 'workspace'; variable: Variable }
  | { source: 'varset'; variable: VarsetVariable; varsetName: string; priority: boolean };

/** Terraform variables first, then environment variables, each by key; needs read-variables on the workspace. */
export async function listAllVariables(ctx: ServiceContext, workspaceId: string): Promise<AppliedVariable[]> {
  return readTransaction(ctx.db, async (tx) => {
    const { row: ws } = await workspaceForVariables(ctx, { id: workspaceId }, 'read', tx);
    const resolved = await resolvedVariables(tx, ws.id);
    const winners: [VariableCategory, ResolvedVariable][] = [
      ...resolved.terraform.map((v): [VariableCategory, ResolvedVariable] => ['terraform', v]),
      ...resolved.env.map((v): [VariableCategory, ResolvedVariable] => ['env', v]),
    ];
    const out: AppliedVariable[] = [];
    for (const [category, v] of winners) {
      // A key is unique per category in the workspace and in each set: the winner's own row.
      if (v.source.kind === 'workspace') {
        const row = await tx
          .selectFrom('workspace_variables')
          .selectAll()
          .where('workspace_id', '=', ws.id)
          .where('category', '=', category)
          .where('key', '=', v.key)
          .executeTakeFirstOrThrow();
        out.push({ source: 'workspace', variable: toVariable(row, ws) });
      } else {
        const row = await tx
          .selectFrom('varset_variables')
          .selectAll()
          .where('varset_id', '=', v.source.id)
          .where('category', '=', category)
          .where('key', '=', v.key)
          .executeTakeFirstOrThrow();
        out.push({
          source: 'varset',
          variable: toVarsetVariable(row),
          varsetName: v.source.name,
          priority: v.source.priority,
        });
      }
    }
    return out;
  });
}
