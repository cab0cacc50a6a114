import type { VariableCategory } from '../../domain/variables/variable.js';

/**
 * What workspace variables and the variables of a set store alike (their tables add their owner,
 * a version or timestamps): the columns written from a variable, and the fields shown from a row,
 * a sensitive value withheld (the API never answers it).
 */
export interface VariableFields {
  key: string;
  value: string;
  description: string | null;
  category: VariableCategory;
  hcl: boolean;
  sensitive: boolean;
}

interface StoredVariable {
  key: string;
  value: string;
  description: string | null;
  category: string;
  hcl: number;
  sensitive: number;
}

/** The stored columns of a variable. */
export function variableColumns(v: VariableFields): StoredVariable {
  return {
    key: v.key,
    value: v.value,
    description: v.description,
    category: v.category,
    hcl: v.hcl ? 1 : 0,
    sensitive: v.sensitive ? 1 : 0,
  };
}

/** A stored variable's shown fields: a sensitive one's value is null. */
export function shownVariable(row: StoredVariable): Omit<VariableFields, 'value'> & { value: string | null } {
  const sensitive = row.sensitive === 1;
  return {
    key: row.key,
    value: sensitive ? null : row.value,
    description: row.description,
    category: row.category as VariableCategory,
    hcl: row.hcl === 1,
    sensitive,
  };
}
