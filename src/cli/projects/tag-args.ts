import type { TagPair } from '../../client/projects.js';
import { usageError } from '../common/prompts.js';

/**
 * Parses `key=value` (or `key`, meaning an empty value) as given on the command line. Only the
 * shape is checked here; the API validates keys and values.
 */
export function parseTagArg(arg: string): TagPair {
  const at = arg.indexOf('=');
  const key = at === -1 ? arg : arg.slice(0, at);
  if (key === '') throw usageError(`"${arg}" is not a tag: use KEY=VALUE`);
  return { key, value: at === -1 ? '' : arg.slice(at + 1) };
}

/** A list filter `key` (any value) or `key=value`. */
export function parseTagFilter(arg: string): { key: string; value?: string } {
  const { key, value } = parseTagArg(arg);
  return arg.includes('=') ? { key, value } : { key };
}
