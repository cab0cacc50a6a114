import type { Resource } from '../../client/jsonapi.js';
import type { VariableAttributes, VarsetAttributes } from '../../client/variables.js';
import { renderFields, renderTable } from '../output/output.js';

/** A value as people see it: a sensitive one is never shown (the API does not send it anyway). */
export function shownValue(v: VariableAttributes): string {
  if (v.sensitive) return '(sensitive)';
  return v.value ?? '';
}

export function variableTable(vars: Resource<VariableAttributes>[]): string {
  return renderTable(vars, [
    { header: 'KEY', value: (v) => v.attributes.key },
    { header: 'VALUE', value: (v) => shownValue(v.attributes) },
    { header: 'CATEGORY', value: (v) => v.attributes.category },
    { header: 'HCL', value: (v) => (v.attributes.hcl ? 'yes' : 'no') },
    { header: 'SENSITIVE', value: (v) => (v.attributes.sensitive ? 'yes' : 'no') },
    { header: 'DESCRIPTION', value: (v) => v.attributes.description ?? '' },
  ]);
}

/**
 * The variables that apply to a workspace (`var list --effective`), each with where its value comes
 * from: the workspace, or a variable set by name (`sets`: id to name and priority).
 */
export function effectiveVariableTable(
  vars: Resource<VariableAttributes>[],
  sets: Map<string, { name: string; priority: boolean }>,
): string {
  const source = (v: Resource<VariableAttributes>) => {
    const data = v.relationships?.varset?.data;
    const id = data && !Array.isArray(data) ? data.id : undefined;
    if (id === undefined) return 'workspace';
    const set = sets.get(id);
    if (!set) return `variable set ${id}`;
    return `variable set ${set.name}${set.priority ? ' (priority)' : ''}`;
  };
  return renderTable(vars, [
    { header: 'KEY', value: (v) => v.attributes.key },
    { header: 'VALUE', value: (v) => shownValue(v.attributes) },
    { header: 'CATEGORY', value: (v) => v.attributes.category },
    { header: 'SOURCE', value: source },
  ]);
}

export function varsetTable(sets: Resource<VarsetAttributes>[]): string {
  return renderTable(sets, [
    { header: 'NAME', value: (s) => s.attributes.name },
    { header: 'ID', value: (s) => s.id },
    { header: 'SCOPE', value: (s) => (s.attributes.global ? 'global' : 'applied') },
    { header: 'PRIORITY', value: (s) => (s.attributes.priority ? 'yes' : 'no') },
    { header: 'DESCRIPTION', value: (s) => s.attributes.description ?? '' },
  ]);
}

/** Who owns a set (its `parent`): `project prj-…` or `organization NAME`. */
function ownerOf(s: Resource<VarsetAttributes>): string {
  const parent = s.relationships?.parent?.data;
  if (!parent || Array.isArray(parent)) return '';
  return parent.type === 'projects' ? `project ${parent.id}` : `organization ${parent.id}`;
}

export function varsetFields(s: Resource<VarsetAttributes>, vars: Resource<VariableAttributes>[]): string {
  const count = (rel: string) => {
    const data = s.relationships?.[rel]?.data;
    return Array.isArray(data) ? data.length : 0;
  };
  const head = renderFields([
    ['Name', s.attributes.name],
    ['ID', s.id],
    ['Description', s.attributes.description ?? ''],
    ['Owner', ownerOf(s)],
    [
      'Scope',
      s.attributes.global ? 'global (every workspace of the organization)' : 'applied to workspaces and projects',
    ],
    ['Priority', s.attributes.priority ? 'yes (overrides workspace and run variables)' : 'no'],
    ['Workspaces', count('workspaces')],
    ['Projects', count('projects')],
  ]);
  return vars.length === 0 ? `${head}\n\nNo variables.` : `${head}\n\n${variableTable(vars)}`;
}
