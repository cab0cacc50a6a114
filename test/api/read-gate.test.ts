import { describe, expect, it } from 'vitest';
import { ConcurrencyGate } from '../../src/api/read-gate.js';

describe('ConcurrencyGate (serve computes a few GETs at a time)', () => {
  it('runs at most max at once, the others in arrival order, and passes the turn on after a failure', async () => {
    const gate = new ConcurrencyGate(2);
    let running = 0;
    let most = 0;
    const order: number[] = [];
    const task = (i: number, fail = false) =>
      gate.run(async () => {
        running++;
        most = Math.max(most, running);
        order.push(i);
        await new Promise((r) => setTimeout(r, 5));
        running--;
        if (fail) throw new Error(`task ${i}`);
        return i;
      });
    const results = await Promise.allSettled([task(0), task(1, true), task(2), task(3), task(4, true), task(5)]);
    expect(most).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
    expect(results.map((r) => r.status)).toEqual([
      'fulfilled',
      'rejected',
      'fulfilled',
      'fulfilled',
      'rejected',
      'fulfilled',
    ]);
    expect(gate.load).toEqual({ running: 0, waiting: 0 });
  });
});
