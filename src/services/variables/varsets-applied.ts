import type { Kysely } from 'kysely';
import type { AppliedSet, SetScope, VariableCategory } from '../../domain/variables/variable-precedence.js';
import type { DB } from '../../store/schema.js';
import type { SealedTable } from '../../store/secrets/sealed-values.js';

/** The value a stored variable is given as (effective.ts: opened for a run, or withheld). */
export type RevealValue = (table: SealedTable, row: { id: string; value: string; sealed: number }) => string;

/**
 * The variable sets that apply to a workspace, each at the most specific scope it reaches the
 * workspace by (its own, its project's, or every workspace's), with their variables, values
 * as `reveal` gives them: for the executor only (domain/variables/variable-precedence.ts decides), never for an answer.
 */
export async function appliedVarsets(db: Kysely<DB>, workspaceId: string, reveal: RevealValue): Promise<AppliedSet[]> {
  const ws = await db
    .selectFrom('workspaces')
    .select(['organization_id', 'project_id'])
    .where('id', '=', workspaceId)
    .executeTakeFirst();
  if (!ws) return [];
  const sets = await db
    .selectFrom('varsets')
    .select(['id', 'name', 'priority', 'global'])
    .select((eb) => [
      eb
        .exists(
          eb
            .selectFrom('varset_workspaces')
            .select('varset_id')
            .whereRef('varset_id', '=', 'varsets.id')
            .where('workspace_id', '=', workspaceId),
        )
        .as('own'),
      eb
        .exists(
          eb
            .selectFrom('varset_projects')
            .select('varset_id')
            .whereRef('varset_id', '=', 'varsets.id')
            .where('project_id', '=', ws.project_id),
        )
        .as('through_project'),
    ])
    .where('organization_id', '=', ws.organization_id)
    // A set owned by a project applies only to that project's workspaces.
    .where((eb) => eb.or([eb('parent_project_id', 'is', null), eb('parent_project_id', '=', ws.project_id)]))
    .execute();
  const applied = sets
    .map((s) => {
      const scope: SetScope | null = Number(s.own)
        ? 'workspace'
        : Number(s.through_project)
          ? 'project'
          : s.global === 1
            ? 'global'
            : null;
      return scope ? { id: s.id, name: s.name, priority: s.priority === 1, scope } : null;
    })
    .filter((s): s is Omit<AppliedSet, 'variables'> => s !== null);
  if (applied.length === 0) return [];
  const vars = await db
    .selectFrom('varset_variables')
    .select(['varset_id', 'id', 'key', 'value', 'sealed', 'category', 'hcl', 'sensitive'])
    .where(
      'varset_id',
      'in',
      applied.map((s) => s.id),
    )
    .orderBy('seq')
    .execute();
  return applied.map((s) => ({
    ...s,
    variables: vars
      .filter((v) => v.varset_id === s.id)
      .map((v) => ({
        key: v.key,
        value: reveal('varset_variables', v),
        category: v.category as VariableCategory,
        hcl: v.hcl === 1,
        sensitive: v.sensitive === 1,
      })),
  }));
}
