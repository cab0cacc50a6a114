/**
 * `auto-destroy-activity-duration`: an integer greater than 0 of at most four digits followed by
 * `d` (days) or `h` (hours), e.g. `14d`, `36h`.
 */
const DURATION = /^(\d{1,4})([dh])$/;

export const DURATION_FORMAT_DETAIL =
  "Auto destroy activity duration has an incorrect format, we expect up to 4 numeric digits and 1 unit ('d' or 'h')";

export function isValidDuration(value: string): boolean {
  const m = DURATION.exec(value);
  return m !== null && Number(m[1]) > 0;
}

/** The duration in milliseconds (for computing `auto-destroy-at`). */
export function durationMs(value: string): number {
  const m = DURATION.exec(value);
  if (!m) throw new Error(`invalid duration ${value}`);
  return Number(m[1]) * (m[2] === 'd' ? 86_400_000 : 3_600_000);
}
