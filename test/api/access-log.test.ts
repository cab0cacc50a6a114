import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { AccessLog } from '../../src/api/access-log.js';

describe('access log batches', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('writes the lines of a burst together, at most maxDelayMs after the first', () => {
    const writes: string[] = [];
    const log = new AccessLog((t) => writes.push(t), { maxDelayMs: 50, maxLines: 100 });
    log.add('a');
    log.add('b');
    vi.advanceTimersByTime(49);
    expect(writes).toEqual([]);
    log.add('c');
    vi.advanceTimersByTime(1);
    expect(writes).toEqual(['a\nb\nc']);
    // The next line starts a new batch.
    log.add('d');
    vi.advanceTimersByTime(50);
    expect(writes).toEqual(['a\nb\nc', 'd']);
  });

  it('writes at once when maxLines are waiting, and flush writes the rest (and nothing when empty)', () => {
    const writes: string[] = [];
    const log = new AccessLog((t) => writes.push(t), { maxDelayMs: 50, maxLines: 3 });
    for (const l of ['1', '2', '3', '4']) log.add(l);
    expect(writes).toEqual(['1\n2\n3']);
    log.flush();
    expect(writes).toEqual(['1\n2\n3', '4']);
    log.flush();
    vi.advanceTimersByTime(100);
    expect(writes).toEqual(['1\n2\n3', '4']);
  });
});
