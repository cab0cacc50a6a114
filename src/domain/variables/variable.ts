import { Problems } from '../common/errors.js';
import { isPlainText, NOT_TEXT } from '../common/limits.js';

/**
 * Workspace variables (HCP Terraform's `vars`): their shape, the rules of their attributes, and
 * how a run is given them (a `.auto.tfvars` file, environment variables). Pure: no I/O.
 */

export const VARIABLE_CATEGORIES = ['terraform', 'env'] as const;
export type VariableCategory = (typeof VARIABLE_CATEGORIES)[number];

/** HCP Terraform's documented limits ("Variable values and format"). */
export const VARIABLE_KEY_MAX = 128;
export const VARIABLE_DESCRIPTION_MAX = 512;
/** 256 kilobytes of UTF-8. */
export const VARIABLE_VALUE_MAX_BYTES = 256 * 1024;

/**
 * A name a configuration can declare: an HCL identifier (letters, digits, `_`, `-`; not starting
 * with a digit or `-`). HCP takes any key (go-tfe's own tests use UUIDs); a run is given only the
 * Terraform variables whose key is one (no configuration can declare another).
 */
const TERRAFORM_IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]*$/;
export const isTerraformIdentifier = (key: string): boolean => TERRAFORM_IDENTIFIER.test(key);
/** Characters no key holds: line breaks and tabs (and the controls `isPlainText` refuses). */
const KEY_BREAKS = /[\t\n\r]/;

export interface Variable {
  id: string;
  workspaceId: string;
  workspaceName: string;
  organizationName: string;
  key: string;
  /** Null when sensitive: the API never answers a sensitive value. */
  value: string | null;
  description: string | null;
  category: VariableCategory;
  hcl: boolean;
  sensitive: boolean;
  versionId: string;
  createdAt: string;
  updatedAt: string;
}

/** What a create or update asks for; an absent member is left as it is (update) or takes its default (create). */
export interface VariableInput {
  key?: string;
  value?: string;
  description?: string | null;
  category?: VariableCategory;
  hcl?: boolean;
  sensitive?: boolean;
}

/** The attributes a variable has once a create or update applied. */
export interface VariableFields {
  key: string;
  value: string;
  description: string | null;
  category: VariableCategory;
  hcl: boolean;
  sensitive: boolean;
}

const at = (name: string) => `/data/attributes/${name}`;

/**
 * Reads the attributes of a create or update request; types only (the rules that depend on the
 * whole variable are `checkVariable`'s). A null member counts as absent, except `description`,
 * which null clears. Unknown members are ignored, as HCP does. A 422 per broken rule.
 */
export function parseVariableAttributes(attrs: Record<string, unknown>, mode: 'create' | 'update'): VariableInput {
  const problems = new Problems();
  const input: VariableInput = {};
  const str = (name: 'key' | 'value') => {
    const v = attrs[name];
    if (v === undefined || v === null) return;
    if (typeof v !== 'string') problems.add(at(name), `${name} must be a string`);
    else input[name] = v;
  };
  str('key');
  str('value');
  const d = attrs.description;
  if (d === null) input.description = null;
  else if (d !== undefined) {
    if (typeof d !== 'string') problems.add(at('description'), 'description must be a string');
    else input.description = d;
  }
  const c = attrs.category;
  if (c !== undefined && c !== null) {
    if (typeof c !== 'string' || !(VARIABLE_CATEGORIES as readonly string[]).includes(c))
      problems.add(at('category'), 'category must be "terraform" or "env"');
    else input.category = c as VariableCategory;
  }
  for (const name of ['hcl', 'sensitive'] as const) {
    const v = attrs[name];
    if (v === undefined || v === null) continue;
    if (typeof v !== 'boolean') problems.add(at(name), `${name} must be true or false`);
    else input[name] = v;
  }
  if (mode === 'create') {
    if (attrs.key === undefined || attrs.key === null) problems.add(at('key'), 'key is required');
    if (attrs.category === undefined || attrs.category === null)
      problems.add(at('category'), 'category is required: "terraform" or "env"');
  }
  problems.throwIfAny();
  return input;
}

/** The variable an input makes: over `current` (update), or over the defaults (create). */
export function mergeVariable(input: VariableInput, current?: VariableFields): VariableFields {
  return {
    key: input.key ?? current?.key ?? '',
    value: input.value ?? current?.value ?? '',
    description: input.description !== undefined ? input.description : (current?.description ?? null),
    category: input.category ?? current?.category ?? 'terraform',
    hcl: input.hcl ?? current?.hcl ?? false,
    sensitive: input.sensitive ?? current?.sensitive ?? false,
  };
}

/**
 * The rules of a whole variable (after `mergeVariable`): a key of plain text (any other form, as
 * HCP takes it; an environment key without "=") and its length, the sizes of value and description, and that a sensitive variable stays sensitive
 * (HCP: a sensitive variable is write-only; to make it readable, delete it and create it again).
 * Never puts the value itself in a message.
 */
export function checkVariable(next: VariableFields, current?: VariableFields): void {
  const problems = new Problems();
  if (next.key === '') problems.add(at('key'), 'key must not be empty');
  else if (next.key.length > VARIABLE_KEY_MAX)
    problems.add(at('key'), `key must be at most ${VARIABLE_KEY_MAX} characters`);
  else if (!isPlainText(next.key) || KEY_BREAKS.test(next.key))
    problems.add(at('key'), 'key must not contain control characters, tabs, line breaks or unpaired surrogates');
  else if (next.category === 'env' && next.key.includes('='))
    problems.add(at('key'), 'an environment variable key must not contain "="');
  if (Buffer.byteLength(next.value, 'utf8') > VARIABLE_VALUE_MAX_BYTES)
    problems.add(at('value'), `value must be at most ${VARIABLE_VALUE_MAX_BYTES / 1024} KiB`);
  else if (next.value.includes('\0'))
    problems.add(at('value'), 'the value of a variable must not contain a NUL character');
  else if (/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(next.value))
    problems.add(at('value'), 'the value of a variable must not contain unpaired surrogates');
  if (next.description !== null && next.description.length > VARIABLE_DESCRIPTION_MAX)
    problems.add(at('description'), `description must be at most ${VARIABLE_DESCRIPTION_MAX} characters`);
  else if (next.description !== null && !isPlainText(next.description))
    problems.add(at('description'), `description ${NOT_TEXT}`);
  if (current?.sensitive && !next.sensitive)
    problems.add(
      at('sensitive'),
      'a sensitive variable cannot be made non-sensitive; delete it and create it again to change that',
    );
  problems.throwIfAny();
}

/** The conflict of a key already used in the workspace and category. */
export function keyTakenDetail(key: string, category: VariableCategory): string {
  return `the workspace already has a${category === 'env' ? 'n environment' : ' Terraform'} variable with key "${key}"`;
}

// ---------------------------------------------------------------------------------------------
// Runs

/** A Terraform variable as a run is given it. */
export interface RunTerraformVariable {
  key: string;
  value: string;
  hcl: boolean;
  sensitive: boolean;
}

/** An environment variable as a run is given it. */
export interface RunEnvVariable {
  key: string;
  value: string;
  sensitive: boolean;
}

/** An HCL quoted string holding `value` exactly: escapes, and template sequences (`${`, `%{`) doubled. */
export function hclString(value: string): string {
  let out = '"';
  for (let i = 0; i < value.length; i++) {
    const ch = value[i];
    const next = value[i + 1];
    if (ch === '\\') out += '\\\\';
    else if (ch === '"') out += '\\"';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if ((ch === '$' || ch === '%') && next === '{') out += ch + ch;
    else if (ch < ' ' || ch === '\x7f') out += `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
    else out += ch;
  }
  return `${out}"`;
}

/**
 * A `.auto.tfvars` file assigning each variable: an HCL value as given, any other as a quoted
 * string. A key no configuration can declare (not an identifier: `isTerraformIdentifier`) is left
 * out, as it could not be written as an assignment.
 */
export function tfvarsFile(variables: readonly RunTerraformVariable[]): string {
  return variables
    .filter((v) => isTerraformIdentifier(v.key))
    .map((v) => `${v.key} = ${v.hcl ? v.value : hclString(v.value)}\n`)
    .join('');
}
