import type { VariableCategory } from './variable.js';

/**
 * Which value of a variable a run gets when several places set it (HCP Terraform's documented
 * precedence, for sets owned by the organization). Pure: the services load the workspace's
 * variables, the sets that apply to it and the run's variables, and ask this.
 *
 * From the strongest to the weakest, for one key of one category:
 *  1. priority sets applied to every workspace (`global`),
 *  2. priority sets applied through the workspace's project,
 *  3. priority sets applied to the workspace itself,
 *  4. the run's own variables (`-var`; Terraform variables only),
 *  5. the workspace's variables,
 *  6. sets applied to the workspace itself,
 *  7. sets applied through the workspace's project,
 *  8. global sets.
 * A priority set overrides what is set at a more specific scope, so among priority sets the
 * broader scope wins; among ordinary sets the more specific one. Two sets at the same rank: the
 * set whose name comes first in the lexical order of Unicode code points wins ("A" before "B",
 * "B" before "a"), whichever was edited last.
 */

export type { VariableCategory };

/** How a set reaches a workspace: all of them, its project, or the workspace itself. */
export type SetScope = 'global' | 'project' | 'workspace';

export interface SourceVariable {
  key: string;
  value: string;
  category: VariableCategory;
  hcl: boolean;
  sensitive: boolean;
}

/** A set that applies to the workspace, at the most specific scope it reaches it by. */
export interface AppliedSet {
  id: string;
  name: string;
  priority: boolean;
  scope: SetScope;
  variables: SourceVariable[];
}

/** A variable given to one run (`-var`, the run's `variables` attribute). */
export interface RunVariableInput {
  key: string;
  value: string;
}

/** Where a winning value came from. */
export type VariableSource = { kind: 'workspace' } | { kind: 'varset'; id: string; name: string; priority: boolean };

export interface ResolvedVariable {
  key: string;
  value: string;
  hcl: boolean;
  sensitive: boolean;
  source: VariableSource;
}

export interface ResolvedVariables {
  /** Terraform variables from the workspace and its sets that the run's own variables do not replace. */
  terraform: ResolvedVariable[];
  env: ResolvedVariable[];
  /** The run's variables that stand: those no priority set overrides. */
  runVariables: RunVariableInput[];
  /** The run's variables dropped because a priority set sets the same Terraform variable. */
  overriddenRunVariables: { key: string; varsetId: string }[];
}

const PRIORITY_RANK: Record<SetScope, number> = { global: 0, project: 1, workspace: 2 };
const RUN_RANK = 3;
const WORKSPACE_RANK = 4;
const ORDINARY_RANK: Record<SetScope, number> = { workspace: 5, project: 6, global: 7 };

/** Orders strings by Unicode code points (not UTF-16 code units, which JavaScript's `<` compares). */
export function compareCodePoints(a: string, b: string): number {
  const x = Array.from(a);
  const y = Array.from(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    const d = x[i].codePointAt(0)! - y[i].codePointAt(0)!;
    if (d !== 0) return d;
  }
  return x.length - y.length;
}

interface Candidate {
  rank: number;
  name: string;
  id: string;
  variable: SourceVariable;
  source: VariableSource;
}

function beats(a: Candidate, b: Candidate): boolean {
  if (a.rank !== b.rank) return a.rank < b.rank;
  const byName = compareCodePoints(a.name, b.name);
  if (byName !== 0) return byName < 0;
  return a.id < b.id;
}

export function resolveVariables(input: {
  workspace: SourceVariable[];
  sets: AppliedSet[];
  runVariables?: RunVariableInput[];
}): ResolvedVariables {
  const winners = new Map<string, Candidate>();
  const offer = (c: Candidate) => {
    const slot = `${c.variable.category}\u0000${c.variable.key}`;
    const held = winners.get(slot);
    if (!held || beats(c, held)) winners.set(slot, c);
  };
  for (const v of input.workspace) {
    offer({ rank: WORKSPACE_RANK, name: '', id: '', variable: v, source: { kind: 'workspace' } });
  }
  for (const set of input.sets) {
    const rank = set.priority ? PRIORITY_RANK[set.scope] : ORDINARY_RANK[set.scope];
    const source: VariableSource = { kind: 'varset', id: set.id, name: set.name, priority: set.priority };
    for (const v of set.variables) offer({ rank, name: set.name, id: set.id, variable: v, source });
  }

  const runVariables: RunVariableInput[] = [];
  const overriddenRunVariables: { key: string; varsetId: string }[] = [];
  const runKeys = new Set<string>();
  for (const rv of input.runVariables ?? []) {
    const held = winners.get(`terraform\u0000${rv.key}`);
    if (held && held.rank < RUN_RANK && held.source.kind === 'varset') {
      overriddenRunVariables.push({ key: rv.key, varsetId: held.source.id });
    } else {
      runVariables.push(rv);
      runKeys.add(rv.key);
    }
  }

  const terraform: ResolvedVariable[] = [];
  const env: ResolvedVariable[] = [];
  for (const c of winners.values()) {
    const { key, value, hcl, sensitive, category } = c.variable;
    const out = { key, value, hcl, sensitive, source: c.source };
    if (category === 'env') env.push(out);
    else if (!runKeys.has(key)) terraform.push(out);
  }
  const byKey = (a: ResolvedVariable, b: ResolvedVariable) => compareCodePoints(a.key, b.key);
  return { terraform: terraform.sort(byKey), env: env.sort(byKey), runVariables, overriddenRunVariables };
}
