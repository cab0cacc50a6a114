import type { Selectable } from 'kysely';
import type { Variable, VariableCategory, VariableFields } from '../../domain/variables/variable.js';
import type { WorkspaceVariablesTable } from '../../store/schema.js';
import { clearOrEmpty } from './sealed-value.js';
import { shownVariable } from './variable-columns.js';

/**
 * Workspace variables, what the other files of this folder share: the row and the domain
 * variable made of it. Reading and writing them: variables-read.ts, variables-write.ts; who may:
 * variable-access.ts; what a run is given: effective.ts.
 */

export type VariableRow = Selectable<WorkspaceVariablesTable>;

/** The workspace a variable belongs to, as its document names it. */
export interface VariableOwner {
  id: string;
  name: string;
  org_name: string;
}

/** The variable of a row, its value withheld when sensitive (the API never answers it). */
export function toVariable(row: VariableRow, ws: VariableOwner): Variable {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    workspaceName: ws.name,
    organizationName: ws.org_name,
    ...shownVariable(row),
    versionId: row.version_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/** The attributes of a stored variable, for the rules of an update (a sealed value reads '': sealed-value.ts). */
export function fieldsOf(row: VariableRow): VariableFields {
  return {
    key: row.key,
    value: clearOrEmpty(row),
    description: row.description,
    category: row.category as VariableCategory,
    hcl: row.hcl === 1,
    sensitive: row.sensitive === 1,
  };
}
