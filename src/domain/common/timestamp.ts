/** ISO 8601 date and time with `Z` or an offset (seconds and fractions optional). */
const TIMESTAMP = /^(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d)(?:\.\d+)?)?(?:Z|([+-])(\d\d):?(\d\d))$/;

/**
 * The instant an ISO 8601 timestamp names, as UTC ISO with milliseconds, or null when it is not
 * one. The calendar fields must exist as written: `Date` would silently roll 2024-02-31 over to
 * March 2, or hour 24 to the next day; here they are refused.
 */
export function parseTimestamp(text: string): string | null {
  const m = TIMESTAMP.exec(text);
  if (!m) return null;
  const [year, month, day, hour, minute, second] = [m[1], m[2], m[3], m[4], m[5], m[6] ?? '0'].map(Number) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const calendar = new Date(0);
  calendar.setUTCFullYear(year, month - 1, day);
  calendar.setUTCHours(hour, minute, second);
  if (
    calendar.getUTCFullYear() !== year ||
    calendar.getUTCMonth() !== month - 1 ||
    calendar.getUTCDate() !== day ||
    calendar.getUTCHours() !== hour ||
    calendar.getUTCMinutes() !== minute ||
    calendar.getUTCSeconds() !== second
  ) {
    return null;
  }
  if (m[7] && (Number(m[8]) > 23 || Number(m[9]) > 59)) return null;
  const ms = Date.parse(text);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}
