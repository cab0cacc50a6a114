import { readFileSync } from 'node:fs';
import { Flags } from './oclif.js';
import { usageError } from './prompts.js';

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
