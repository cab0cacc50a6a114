import type { Kysely } from 'kysely';
import type { RunVariable } from '../../domain/runs/run-execution.js';
import {
  resolveVariables,
  type ResolvedVariables,
  type SourceVariable,
  type VariableCategory,
} from '../../domain/variables/variable-precedence.js';
import type { RunEnvVariable, RunTerraformVariable } from '../../domain/variables/variable.js';
import type { DB } from '../../store/schema.js';
import { runValue, type StoredValue } from './sealed-value.js';
import { appliedVarsets, type RevealValue } from './varsets-applied.js';

/** What a run of a workspace is given: its Terraform variables and its environment variables. */
export interface EffectiveVariables {
  /** The Terraform variables of the workspace and its variable sets (those the run's own do not replace). */
  terraform: RunTerraformVariable[];
  env: RunEnvVariable[];
  /**
   * The run's own variables (`-var`) that stand: those no priority variable set overrides. The
   * executor gives terraform these, not the run's whole list (docs/api.md, "Variable sets").
   */
  runVariables: RunVariable[];
  /** The run's variables a priority set overrides (key, and the set that wins). */
  overriddenRunVariables: { key: string; varsetId: string }[];
}

/**
 * The variables a run of the workspace is given, sensitive values included (for the executor
 * only: never answered by the API): the workspace's own, its variable sets' and the run's, each
 * key of each category taking the value that HCP Terraform's precedence gives it
 * (domain/variables/variable-precedence.ts). Sealed values are opened with the key of the store
 * `db` (a 503 that names the key when it is missing or wrong: the run ends errored, saying so).
 */
export async function effectiveVariables(
  db: Kysely<DB>,
  workspaceId: string,
  runVariables: RunVariable[] = [],
): Promise<EffectiveVariables> {
  const resolved = await resolvedVariables(db, workspaceId, runVariables, (table, row) => runValue(db, table, row));
  return {
    terraform: resolved.terraform.map(({ key, value, hcl, sensitive }) => ({ key, value, hcl, sensitive })),
    env: resolved.env.map(({ key, value, sensitive }) => ({ key, value, sensitive })),
    runVariables: resolved.runVariables,
    overriddenRunVariables: resolved.overriddenRunVariables,
  };
}

/**
 * Each key of each category of the workspace, with the value HCP Terraform's precedence gives it
 * and where that value comes from (the workspace or a set): what a run is given
 * (effectiveVariables, whose `reveal` opens sealed values) and what `GET /workspaces/:id/all-vars`
 * shows (all-variables.ts, which needs no value: by default a sealed one reads '', and needs no key).
 */
export async function resolvedVariables(
  db: Kysely<DB>,
  workspaceId: string,
  runVariables: RunVariable[] = [],
  reveal: RevealValue = withheld,
): Promise<ResolvedVariables> {
  const own = await workspaceOwnVariables(db, workspaceId);
  const workspace: SourceVariable[] = own.map((v) => ({
    key: v.key,
    value: reveal('workspace_variables', v),
    category: v.category as VariableCategory,
    hcl: v.hcl === 1,
    sensitive: v.sensitive === 1,
  }));
  return resolveVariables({ workspace, sets: await appliedVarsets(db, workspaceId, reveal), runVariables });
}

/** A stored value as it is, a sealed one as '' (never opened). */
const withheld: RevealValue = (_table, row: StoredValue) => (row.sealed === 1 ? '' : row.value);

/** The workspace's own variables. */
function workspaceOwnVariables(db: Kysely<DB>, workspaceId: string) {
  return db
    .selectFrom('workspace_variables')
    .select(['id', 'key', 'value', 'sealed', 'category', 'hcl', 'sensitive'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('seq')
    .execute();
}

/** The variables of the run's workspace and the run's own (none for a run that is gone). */
export async function effectiveVariablesOfRun(db: Kysely<DB>, runId: string): Promise<EffectiveVariables> {
  const run = await db
    .selectFrom('runs')
    .select(['workspace_id', 'variables'])
    .where('id', '=', runId)
    .executeTakeFirst();
  if (!run) return { terraform: [], env: [], runVariables: [], overriddenRunVariables: [] };
  return effectiveVariables(db, run.workspace_id, runVariablesOf(run.variables));
}

function runVariablesOf(json: string | null): RunVariable[] {
  if (!json) return [];
  const parsed = JSON.parse(json) as unknown;
  return Array.isArray(parsed) ? (parsed as RunVariable[]) : [];
}
