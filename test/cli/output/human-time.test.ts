import { describe, expect, it } from 'vitest';
import { clockTime, humanDuration, humanTime, relativeTime } from '../../../src/cli/output/human-time.js';

describe('human times and durations (src/cli/output/human-time.ts)', () => {
  it('writes durations in their two largest units', () => {
    expect(humanDuration(350)).toBe('350ms');
    expect(humanDuration(40_000)).toBe('40s');
    expect(humanDuration(90_000)).toBe('1m30s');
    expect(humanDuration(60_000)).toBe('1m');
    expect(humanDuration(2 * 3600_000 + 5 * 60_000 + 7_000)).toBe('2h5m');
    expect(humanDuration(3 * 86400_000 + 4 * 3600_000)).toBe('3d4h');
    expect(humanDuration(120_000)).toBe('2m');
    expect(humanDuration(-1000)).toBe('-1s');
  });

  it('says how long ago, or how far ahead', () => {
    const now = new Date('2026-11-23T14:05:00Z');
    expect(relativeTime('2026-11-23T14:04:55Z', now)).toBe('just now');
    expect(relativeTime('2026-11-23T14:04:30Z', now)).toBe('30 seconds ago');
    expect(relativeTime('2026-11-23T14:02:00Z', now)).toBe('3 minutes ago');
    expect(relativeTime('2026-11-23T13:05:00Z', now)).toBe('1 hour ago');
    expect(relativeTime('2026-11-21T14:05:00Z', now)).toBe('2 days ago');
    expect(relativeTime('2026-11-23T14:10:00Z', now)).toBe('in 5 minutes');
    expect(relativeTime('2026-11-25T14:05:00Z', now)).toBe('in 2 days');
    expect(relativeTime('2026-11-09T14:05:00Z', now)).toBe('2 weeks ago');
    expect(relativeTime('not a time', now)).toBe('not a time');
  });

  it('gives the local clock time, with the date unless it is today', () => {
    const now = new Date(2026, 10, 23, 14, 5);
    expect(clockTime(new Date(2026, 10, 23, 14, 2).toISOString(), now)).toBe('14:02');
    expect(clockTime(new Date(2026, 10, 20, 9, 7).toISOString(), now)).toBe('2026-11-20 09:07');
    expect(humanTime(new Date(2026, 10, 23, 14, 2).toISOString(), now)).toBe('14:02, 3 minutes ago');
  });
});
