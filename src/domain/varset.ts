import * as v from 'valibot';
import { bool, checkAttributes, nullable, oneOf, opt, str, text } from './attributes.js';
import { Problems } from './errors.js';
import { toManyIds } from './relationships.js';
import type { VariableCategory } from './variable-precedence.js';

/** A variable set as the services return it (domain/variable-precedence.ts says how sets apply). */
export interface Varset {
  id: string;
  organizationName: string;
  name: string;
  description: string;
  global: boolean;
  priority: boolean;
  updatedAt: string;
  varCount: number;
  workspaceCount: number;
  projectCount: number;
  variableIds: string[];
  workspaceIds: string[];
  projectIds: string[];
}

/** A variable of a set. `value` is null when it is sensitive: it never leaves the API. */
export interface VarsetVariable {
  id: string;
  varsetId: string;
  key: string;
  value: string | null;
  description: string | null;
  category: VariableCategory;
  hcl: boolean;
  sensitive: boolean;
  createdAt: string;
}

export const VARIABLE_CATEGORIES = ['terraform', 'env'] as const;
export const VARSET_NAME_MAX = 128;
export const VARSET_DESCRIPTION_MAX = 512;
export const VARIABLE_KEY_MAX = 128;
export const VARIABLE_VALUE_MAX = 256 * 1024;
export const VARIABLE_DESCRIPTION_MAX = 512;
export const VARSET_NAME_TAKEN = 'Name has already been taken';

export interface VarsetInput {
  name?: string;
  description?: string;
  global?: boolean;
  priority?: boolean;
  /** Replaces the workspaces the set applies to (create: the first ones). */
  workspaceIds?: string[];
  projectIds?: string[];
  /** Variables to add (create and update alike). */
  variables?: VariableInput[];
}

export interface VariableInput {
  key?: string;
  value?: string;
  description?: string | null;
  category?: VariableCategory;
  hcl?: boolean;
  sensitive?: boolean;
}

const VARSET_ATTRIBUTES = v.object({
  name: opt(text(VARSET_NAME_MAX)),
  description: nullable(text(VARSET_DESCRIPTION_MAX)),
  global: opt(bool()),
  priority: opt(bool()),
});

const VARIABLE_ATTRIBUTES = v.object({
  key: opt(str()),
  value: nullable(
    v.pipe(
      v.string('must be a string'),
      v.check((s) => s.length <= VARIABLE_VALUE_MAX, `is too long (maximum is ${VARIABLE_VALUE_MAX} characters)`),
    ),
  ),
  description: nullable(text(VARIABLE_DESCRIPTION_MAX)),
  category: opt(oneOf(VARIABLE_CATEGORIES)),
  hcl: opt(bool()),
  sensitive: opt(bool()),
});

/** Terraform input variable names, and environment variable names a shell can export. */
const TERRAFORM_KEY = /^[A-Za-z_][A-Za-z0-9_-]*$/;
const ENV_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** The problem with a variable's key in its category, if any. */
export function variableKeyProblem(key: string, category: VariableCategory): string | undefined {
  if (key === '') return "Key can't be blank";
  if (key.length > VARIABLE_KEY_MAX) return `Key is too long (maximum is ${VARIABLE_KEY_MAX} characters)`;
  if (category === 'terraform' && !TERRAFORM_KEY.test(key))
    return 'Key must start with a letter or underscore and contain only letters, numbers, underscores and hyphens';
  if (category === 'env' && !ENV_KEY.test(key))
    return 'Key must start with a letter or underscore and contain only letters, numbers and underscores';
  return undefined;
}

/** A `vars` resource's attributes, at `base`; on create key and category are required. */
export function parseVariableInput(
  attributes: unknown,
  mode: 'create' | 'update',
  base = '/data/attributes',
  problems?: Problems,
): VariableInput {
  const a = checkAttributes(VARIABLE_ATTRIBUTES, attributes, base);
  const own = problems ?? new Problems();
  const out: VariableInput = {
    key: a.key,
    value: a.value ?? (a.value === null ? '' : undefined),
    description: a.description,
    category: a.category,
    hcl: a.hcl,
    sensitive: a.sensitive,
  };
  if (mode === 'create') {
    if (out.key === undefined) own.add(`${base}/key`, "Key can't be blank");
    if (out.category === undefined) own.add(`${base}/category`, 'Category must be one of: terraform, env');
  }
  if (out.key !== undefined && out.category !== undefined) {
    const problem = variableKeyProblem(out.key, out.category);
    if (problem) own.add(`${base}/key`, problem);
  }
  if (!problems) own.throwIfAny();
  return out;
}

/** The body of a variable set create or update (`type` = `varsets`). */
export function parseVarsetInput(
  resource: { attributes: Record<string, unknown>; relationships: Record<string, unknown> },
  mode: 'create' | 'update',
): VarsetInput {
  const a = checkAttributes(VARSET_ATTRIBUTES, resource.attributes);
  const problems = new Problems();
  const name = a.name?.trim();
  if (mode === 'create' && name === undefined) problems.add('/data/attributes/name', "Name can't be blank");
  if (name !== undefined && name === '') problems.add('/data/attributes/name', "Name can't be blank");
  const out: VarsetInput = {
    name,
    description: a.description === null ? '' : a.description,
    global: a.global,
    priority: a.priority,
    workspaceIds: toManyIds(resource.relationships, 'workspaces', 'workspaces', problems),
    projectIds: toManyIds(resource.relationships, 'projects', 'projects', problems),
  };
  const vars = (resource.relationships.vars as { data?: unknown } | undefined)?.data;
  if (vars !== undefined && vars !== null) {
    if (!Array.isArray(vars)) problems.add('/data/relationships/vars/data', 'data must be an array of vars');
    else {
      out.variables = vars.map((item, i) => {
        const at = `/data/relationships/vars/data/${i}`;
        const d = (item && typeof item === 'object' ? item : {}) as { type?: unknown; attributes?: unknown };
        if (d.type !== 'vars') problems.add(`${at}/type`, 'type must be "vars"');
        return parseVariableInput(d.attributes, 'create', `${at}/attributes`, problems);
      });
      const seen = new Set<string>();
      out.variables.forEach((x, i) => {
        const slot = `${x.category}:${x.key}`;
        if (seen.has(slot))
          problems.add(`/data/relationships/vars/data/${i}/attributes/key`, 'Key has already been taken');
        seen.add(slot);
      });
    }
  }
  problems.throwIfAny();
  return out;
}

/** A `{"data": [{"type": type, "id": ...}, ...]}` body: the distinct ids (an empty list changes nothing). */
export function parseIdentifierList(body: Record<string, unknown> | null, type: 'workspaces' | 'projects'): string[] {
  const problems = new Problems();
  const data = body?.data;
  if (!Array.isArray(data)) {
    problems.add('/data', `data must be an array of {"type": "${type}", "id": ...} items`);
    problems.throwIfAny();
  }
  const ids: string[] = [];
  (data as unknown[]).forEach((item, i) => {
    const { type: t, id } = (item && typeof item === 'object' ? item : {}) as { type?: unknown; id?: unknown };
    if (t !== type) problems.add(`/data/${i}/type`, `Type must be "${type}"`);
    if (typeof id !== 'string' || id === '') problems.add(`/data/${i}/id`, "Id can't be blank");
    else if (!ids.includes(id)) ids.push(id);
  });
  problems.throwIfAny();
  return ids;
}
