import type { Clock } from '../../src/domain/common/clock.js';

/** An instant far from any second boundary's surprises: tests that read the clock start here. */
export const TEST_EPOCH = Date.parse('2030-01-15T12:00:00.000Z');

/**
 * A clock that moves only when the test moves it: signed URLs' expiries, token expiries and
 * timestamps are the same in every answer until `advance` or `set`, however long the requests take.
 */
export class TestClock implements Clock {
  private ms: number;

  constructor(start: number | Date = TEST_EPOCH) {
    this.ms = typeof start === 'number' ? start : start.getTime();
  }

  now(): Date {
    return new Date(this.ms);
  }

  /** Milliseconds since the epoch. */
  get epochMs(): number {
    return this.ms;
  }

  set(at: number | Date): void {
    this.ms = typeof at === 'number' ? at : at.getTime();
  }

  advance(ms: number): void {
    this.ms += ms;
  }
}
