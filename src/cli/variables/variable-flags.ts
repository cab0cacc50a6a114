import { readFileSync } from 'node:fs';
import type { VariableCollection } from '../../client/variables.js';
import { Flags } from '../oclif.js';
import { usageError } from '../common/prompts.js';

/**
 * The flags that say what a variable is and where its value comes from, shared by `var set` and
 * `varset var set`. A secret is best read from a file or stdin (`--value-file -`), so that it
 * stays out of the shell's history and the process list; berth never prints a value it was given.
 */
export const variableFlags = {
  value: Flags.string({ description: 'the value (prefer --value-file for secrets: a flag shows in ps and history)' }),
  'value-file': Flags.string({ description: 'read the value from this file, or from stdin with -' }),
  env: Flags.boolean({ description: 'an environment variable (default: a Terraform variable)', default: false }),
  hcl: Flags.boolean({ description: 'parse the value as HCL (lists, maps, numbers), not as a string', allowNo: true }),
  sensitive: Flags.boolean({
    description: 'write-only from now on: the API, the CLI, the console and run logs never show the value again',
    default: false,
  }),
  description: Flags.string({ description: 'what the variable is for' }),
  'dry-run': Flags.boolean({ description: 'say what would change, change nothing', default: false }),
};

export const categoryFlag = {
  env: Flags.boolean({ description: 'an environment variable (default: a Terraform variable)', default: false }),
};

export type Category = 'terraform' | 'env';

export function categoryOf(flags: { env?: boolean }): Category {
  return flags.env ? 'env' : 'terraform';
}

export function categoryName(category: Category): string {
  return category === 'env' ? 'environment variable' : 'Terraform variable';
}

/** The value from --value or --value-file (a trailing newline of a file is dropped), or none. */
export function readValue(flags: { value?: string; 'value-file'?: string }): string | undefined {
  if (flags.value !== undefined && flags['value-file'] !== undefined)
    throw usageError('give the value once: --value or --value-file, not both');
  if (flags.value !== undefined) return flags.value;
  const file = flags['value-file'];
  if (file === undefined) return undefined;
  try {
    return readFileSync(file === '-' ? 0 : file, 'utf8').replace(/\r?\n$/, '');
  } catch (err) {
    throw usageError(`cannot read the value from ${file === '-' ? 'stdin' : file}: ${(err as Error).message}`);
  }
}

/**
 * `var set` and `varset var set`: creates the variable of that key and category in `vars`, or
 * updates it; a new one needs a value; with --dry-run, changes nothing. `where` names the
 * collection for people ("workspace app-prod"). Never says the value.
 */
export async function setVariable(
  vars: VariableCollection,
  key: string,
  flags: {
    env?: boolean;
    value?: string;
    'value-file'?: string;
    hcl?: boolean;
    sensitive?: boolean;
    description?: string;
    'dry-run'?: boolean;
  },
  where: string,
): Promise<{ result: unknown; sentence: string }> {
  const category = categoryOf(flags);
  const value = readValue(flags);
  const existing = await vars.find(key, category);
  if (!existing && value === undefined)
    throw usageError(`${key} is a new variable: give its value with --value or --value-file`);
  if (flags['dry-run']) {
    const verb = existing ? 'update' : 'create';
    return {
      result: { dryRun: true, action: verb, key, category, in: where },
      sentence: `Dry run (nothing changes): would ${verb} ${categoryName(category)} ${key} in ${where}.`,
    };
  }
  const { variable, created } = await vars.set({
    key,
    category,
    value,
    description: flags.description,
    hcl: flags.hcl,
    sensitive: flags.sensitive || undefined,
  });
  const sensitive = variable.attributes.sensitive ? ' (sensitive)' : '';
  return {
    result: variable,
    sentence: `${created ? 'Created' : 'Updated'} ${categoryName(category)} ${variable.attributes.key} in ${where}${sensitive}.`,
  };
}
