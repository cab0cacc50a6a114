import type { Kysely } from 'kysely';
import type { RunEnvVariable, RunTerraformVariable } from '../../domain/variable.js';
import type { DB } from '../../store/schema.js';

/** What a run of a workspace is given: its Terraform variables and its environment variables. */
export interface EffectiveVariables {
  terraform: RunTerraformVariable[];
  env: RunEnvVariable[];
}

/**
 * The variables a run of the workspace is given, sensitive values included (for the executor
 * only: never answered by the API). For now the workspace's own variables; variable sets will
 * join here, each source read in turn from the lowest precedence to the highest, a later one
 * replacing an earlier variable of the same category and key.
 */
export async function effectiveVariables(db: Kysely<DB>, workspaceId: string): Promise<EffectiveVariables> {
  const sources = [await workspaceOwnVariables(db, workspaceId)];
  const terraform = new Map<string, RunTerraformVariable>();
  const env = new Map<string, RunEnvVariable>();
  for (const source of sources) {
    for (const v of source) {
      if (v.category === 'terraform')
        terraform.set(v.key, { key: v.key, value: v.value, hcl: v.hcl === 1, sensitive: v.sensitive === 1 });
      else env.set(v.key, { key: v.key, value: v.value, sensitive: v.sensitive === 1 });
    }
  }
  return { terraform: [...terraform.values()], env: [...env.values()] };
}

/** The workspace's own variables (the highest precedence of all sources). */
function workspaceOwnVariables(db: Kysely<DB>, workspaceId: string) {
  return db
    .selectFrom('workspace_variables')
    .select(['key', 'value', 'category', 'hcl', 'sensitive'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('seq')
    .execute();
}

/** The variables of the run's workspace (none for a run that is gone). */
export async function effectiveVariablesOfRun(db: Kysely<DB>, runId: string): Promise<EffectiveVariables> {
  const run = await db.selectFrom('runs').select('workspace_id').where('id', '=', runId).executeTakeFirst();
  return run ? effectiveVariables(db, run.workspace_id) : { terraform: [], env: [] };
}
