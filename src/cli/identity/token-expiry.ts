import { durationMs, isValidDuration } from '../../domain/common/duration.js';
import { parseTimestamp } from '../../domain/common/timestamp.js';
import { usageError } from '../common/prompts.js';

/**
 * `--expires`: an ISO 8601 time (`2030-01-31T00:00:00Z`) or a duration from now (`30d`, `12h`),
 * as the `expired-at` the API takes. A time that is not in the future is refused here, with the
 * flag's name, before anything is sent (the API would refuse it too, at its JSON pointer).
 */
export function expiryOf(value: string | undefined, now: Date = new Date()): string | undefined {
  if (value === undefined) return undefined;
  if (isValidDuration(value)) return new Date(now.getTime() + durationMs(value)).toISOString();
  const at = parseTimestamp(value);
  if (at === null) throw usageError(`--expires ${value}: give a time (2030-01-31T00:00:00Z) or a duration (30d, 12h)`);
  if (Date.parse(at) <= now.getTime())
    throw usageError(
      `--expires ${value}: that time has passed (it is now ${now.toISOString()}); give a time in the future or a duration (30d, 12h)`,
    );
  return at;
}
