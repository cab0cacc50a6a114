/**
 * Times and durations as people read them in tables and views (`3 minutes ago`, `1m30s`,
 * `14:02, 3 minutes ago`); --json, --output yaml and csv keep the API's ISO times. Clock times
 * are in the local time zone (set `TZ` to choose another).
 */

const UNITS: [string, number][] = [
  ['year', 365 * 24 * 3600_000],
  ['month', 30 * 24 * 3600_000],
  ['week', 7 * 24 * 3600_000],
  ['day', 24 * 3600_000],
  ['hour', 3600_000],
  ['minute', 60_000],
  ['second', 1000],
];

/** `iso` relative to `now`: `just now`, `3 minutes ago`, `in 2 days`; the input unchanged if it is not a time. */
export function relativeTime(iso: string, now: Date = new Date()): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const diff = now.getTime() - at;
  const abs = Math.abs(diff);
  if (abs < 10_000) return 'just now';
  const [unit, size] = UNITS.find(([, ms]) => abs >= ms) ?? UNITS[UNITS.length - 1];
  const n = Math.floor(abs / size);
  const text = `${n} ${unit}${n === 1 ? '' : 's'}`;
  return diff >= 0 ? `${text} ago` : `in ${text}`;
}

/** A duration in milliseconds as `850ms`, `40s`, `1m30s`, `2h5m`, `3d4h` (two units at most). */
export function humanDuration(ms: number): string {
  if (!Number.isFinite(ms)) return String(ms);
  const sign = ms < 0 ? '-' : '';
  const abs = Math.abs(Math.round(ms));
  if (abs < 1000) return `${sign}${abs}ms`;
  const parts: [number, string][] = [
    [Math.floor(abs / 86_400_000), 'd'],
    [Math.floor(abs / 3_600_000) % 24, 'h'],
    [Math.floor(abs / 60_000) % 60, 'm'],
    [Math.floor(abs / 1000) % 60, 's'],
  ];
  const first = parts.findIndex(([n]) => n > 0);
  return `${sign}${parts
    .slice(first, first + 2)
    .filter(([n]) => n > 0)
    .map(([n, u]) => `${n}${u}`)
    .join('')}`;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The local clock time of a moment, with its date unless it is today: `14:02`, `2026-11-20 14:02`. */
export function clockTime(iso: string, now: Date = new Date()): string {
  const d = new Date(iso);
  if (Number.isNaN(d.getTime())) return iso;
  const time = `${pad(d.getHours())}:${pad(d.getMinutes())}`;
  const sameDay =
    d.getFullYear() === now.getFullYear() && d.getMonth() === now.getMonth() && d.getDate() === now.getDate();
  return sameDay ? time : `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())} ${time}`;
}

/** A moment for a person: `14:02, 3 minutes ago`. */
export function humanTime(iso: string, now: Date = new Date()): string {
  return `${clockTime(iso, now)}, ${relativeTime(iso, now)}`;
}
