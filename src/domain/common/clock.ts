/** Time comes from a clock so that tests can fix it. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** UTC ISO-8601 with milliseconds and a literal Z, the only timestamp form berth emits. */
export function isoTimestamp(date: Date): string {
  return date.toISOString();
}
