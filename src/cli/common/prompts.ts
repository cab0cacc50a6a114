import { UsageError } from './exit-codes.js';

/** Prompts are allowed only when a person sits at a terminal. */
export function canPrompt(flags: { json?: boolean; yes?: boolean }): boolean {
  return Boolean(
    process.stdin.isTTY &&
    process.stderr.isTTY &&
    !flags.json &&
    !flags.yes &&
    process.env.BERTH_NO_INPUT === undefined,
  );
}

export function usageError(message: string): UsageError {
  return new UsageError(message);
}

// The prompt library is loaded only when a prompt is shown, to keep start-up fast.
export async function confirm(message: string, defaultValue = false): Promise<boolean> {
  const { confirm } = await import('@inquirer/prompts');
  return confirm({ message, default: defaultValue }, { output: process.stderr });
}

export async function input(
  message: string,
  options: { default?: string; validate?: (v: string) => true | string | Promise<true | string> } = {},
): Promise<string> {
  const { input } = await import('@inquirer/prompts');
  return input({ message, default: options.default, validate: options.validate }, { output: process.stderr });
}

export async function select<T extends string>(
  message: string,
  choices: { name: string; value: T }[],
  defaultValue?: T,
): Promise<T> {
  const { select } = await import('@inquirer/prompts');
  return select<T>({ message, choices, default: defaultValue }, { output: process.stderr });
}

/**
 * Confirms a destructive operation: on a terminal it asks; elsewhere it refuses unless `--yes`.
 */
export async function confirmDestructive(what: string, flags: { yes?: boolean; json?: boolean }): Promise<void> {
  if (flags.yes) return;
  if (!canPrompt(flags)) throw usageError(`refusing to ${what} without --yes when not on a terminal`);
  if (!(await confirm(`Really ${what}?`))) throw usageError('aborted');
}

/**
 * The strongest confirmation, for operations that cannot be undone and skip safety checks (force
 * delete): on a terminal the person types the name back; elsewhere it refuses unless `--yes`.
 */
export async function confirmByTyping(
  what: string,
  name: string,
  flags: { yes?: boolean; json?: boolean },
): Promise<void> {
  if (flags.yes) return;
  if (!canPrompt(flags)) throw usageError(`refusing to ${what} without --yes when not on a terminal`);
  const typed = await input(`This will ${what}. Type the name (${name}) to confirm:`);
  if (typed.trim() !== name) throw usageError(`aborted: "${typed.trim()}" is not "${name}"`);
}
