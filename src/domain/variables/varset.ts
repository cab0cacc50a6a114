import * as v from 'valibot';
import { bool, checkAttributes, nullable, opt, text } from '../common/attributes.js';
import { BerthError, Problems } from '../common/errors.js';
import { toManyIds } from '../common/relationships.js';
import {
  checkVariable,
  mergeVariable,
  parseVariableAttributes,
  type VariableCategory,
  type VariableInput,
} from './variable.js';

/** A variable set as the services return it (domain/variables/variable-precedence.ts says how sets apply). */
export interface Varset {
  id: string;
  organizationName: string;
  /** The project that owns the set; null: its organization owns it (HCP's `parent`). */
  parentProjectId: string | null;
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
  /** Changes on every update, even one that changes nothing. */
  versionId: string;
  createdAt: string;
}

export const VARSET_NAME_MAX = 128;
export const VARSET_DESCRIPTION_MAX = 512;
export const VARSET_NAME_TAKEN = 'Name has already been taken';
export const VARSET_KEY_TAKEN = 'the variable set already has a variable with this key and category';
export type { VariableInput };

/**
 * Two global sets may not hold the same key of one category (HCP Terraform's rule, so that global
 * sets never conflict). Names the key and the other set, never a value.
 */
export function globalKeyTakenDetail(key: string, category: string, otherSet: string): string {
  const kind = category === 'env' ? 'an environment' : 'a Terraform';
  return `the global variable set "${otherSet}" already has ${kind} variable with key "${key}": two global variable sets may not hold the same key`;
}

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
  /**
   * `relationships.parent`: who owns the set, a project (by id) or the organization (by name);
   * undefined when absent or `data: null` (create: the organization).
   */
  parent?: VarsetParent;
}

/** The owner of a variable set as a body names it (HCP Terraform's polymorphic `parent`). */
export type VarsetParent = { type: 'projects'; id: string } | { type: 'organizations'; id: string };

export const PROJECT_VARSET_NOT_GLOBAL = 'a variable set owned by a project cannot be global';

/** `relationships.parent.data`: `{type: "projects" | "organizations", id}`; null or absent: none. */
function parseParent(rels: Record<string, unknown>, problems: Problems): VarsetParent | undefined {
  const at = '/data/relationships/parent';
  const rel = rels.parent;
  if (rel === undefined || rel === null) return undefined;
  if (typeof rel !== 'object' || Array.isArray(rel)) {
    problems.add(at, 'parent must be an object with a data member');
    return undefined;
  }
  const data = (rel as { data?: unknown }).data;
  if (data === undefined || data === null) return undefined;
  if (typeof data !== 'object' || Array.isArray(data)) {
    problems.add(`${at}/data`, 'data must be an object with type and id');
    return undefined;
  }
  const { type, id } = data as { type?: unknown; id?: unknown };
  if (type !== 'projects' && type !== 'organizations') {
    problems.add(`${at}/data/type`, 'type must be "projects" or "organizations"');
    return undefined;
  }
  if (typeof id !== 'string' || id.trim() === '') {
    problems.add(`${at}/data/id`, 'id is required');
    return undefined;
  }
  return { type, id: id.trim() };
}

const VARSET_ATTRIBUTES = v.object({
  name: opt(text(VARSET_NAME_MAX)),
  description: nullable(text(VARSET_DESCRIPTION_MAX)),
  global: opt(bool()),
  priority: opt(bool()),
});

/**
 * A `vars` resource's attributes at `base`, by the rules of workspace variables
 * (domain/variables/variable.ts): the types, and on create the whole variable (key form for its category,
 * sizes). Problems are reported at `base`; with `problems` they are added there instead of thrown.
 */
export function parseVariableInput(
  attributes: unknown,
  mode: 'create' | 'update',
  base = '/data/attributes',
  problems?: Problems,
): VariableInput {
  const attrs = (
    attributes && typeof attributes === 'object' && !Array.isArray(attributes) ? attributes : {}
  ) as Record<string, unknown>;
  try {
    const input = parseVariableAttributes(attrs, mode);
    if (mode === 'create') checkVariable(mergeVariable(input));
    return input;
  } catch (err) {
    if (!(err instanceof BerthError)) throw err;
    const rebased = err.items.map((item) => ({
      ...item,
      pointer: item.pointer?.replace(/^\/data\/attributes/, base),
    }));
    if (!problems) throw new BerthError(rebased);
    for (const item of rebased) problems.add(item.pointer ?? base, item.detail ?? item.title);
    return {};
  }
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
    parent: parseParent(resource.relationships, problems),
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
