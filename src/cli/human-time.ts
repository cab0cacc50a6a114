/**
 * Times and durations as a person reads them in human output (`--json` keeps the ISO times):
 * durations as `350ms`, `40s`, `1m30s`, `2h5m`, `3d4h`; moments as `14:02, 3 minutes ago`.
 * Clock times are in the local time zone (set `TZ` to choose another).
 */

const SECOND = 1000;
const MINUTE = 60 * SECOND;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

/** A duration in its two largest units: `350ms`, `40s`, `1m30s`, `1m`, `2h5m`, `3d4h`. */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms) || ms < 0) return '';
  if (ms < SECOND) return `${Math.round(ms)}ms`;
  const units: [number, string][] = [
    [DAY, 'd'],
    [HOUR, 'h'],
    [MINUTE, 'm'],
    [SECOND, 's'],
  ];
  const i = units.findIndex(([size]) => ms >= size);
  const [big, bigName] = units[i];
  const first = Math.floor(ms / big);
  const next = units[i + 1];
  if (!next) return `${first}${bigName}`;
  const second = Math.floor((ms - first * big) / next[0]);
  return second === 0 ? `${first}${bigName}` : `${first}${bigName}${second}${next[1]}`;
}

const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** How long ago (or how far ahead) a moment is: `just now`, `3 minutes ago`, `2 days ago`, `in 5 minutes`. */
export function timeAgo(iso: string, now: Date = new Date()): string {
  const at = Date.parse(iso);
  if (Number.isNaN(at)) return iso;
  const diff = now.getTime() - at;
  const abs = Math.abs(diff);
  if (abs < 10 * SECOND) return 'just now';
  const amount =
    abs < MINUTE
      ? plural(Math.floor(abs / SECOND), 'second')
      : abs < HOUR
        ? plural(Math.floor(abs / MINUTE), 'minute')
        : abs < DAY
          ? plural(Math.floor(abs / HOUR), 'hour')
          : plural(Math.floor(abs / DAY), 'day');
  return diff >= 0 ? `${amount} ago` : `in ${amount}`;
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
  return `${clockTime(iso, now)}, ${timeAgo(iso, now)}`;
}
