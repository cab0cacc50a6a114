import { durationMs, isValidDuration } from '../../domain/common/duration.js';
import { parseTimestamp } from '../../domain/common/timestamp.js';
import { usageError } from '../common/prompts.js';

/**
 * `--expires`: an ISO 8601 time (`2030-01-31T00:00:00Z`) or a duration from now (`30d`, `12h`),
 * as the `expired-at` the API takes.
 */
export function expiryOf(value: string | undefined, now: Date = new Date()): string | undefined {
  if (value === undefined) return undefined;
  if (isValidDuration(value)) return new Date(now.getTime() + durationMs(value)).toISOString();
  const at = parseTimestamp(value);
  if (at === null) throw usageError(`--expires ${value}: give a time (2030-01-31T00:00:00Z) or a duration (30d, 12h)`);
  return at;
}
