import { describe, expect, it } from 'vitest';
import { exposedGc, IdleCollector } from '../../../src/api/idle-gc.js';

describe("serve's collection after a busy spell (idle-gc.ts)", () => {
  it('gets a working gc function at run time, without a command-line flag', () => {
    const gc = exposedGc();
    expect(typeof gc).toBe('function');
    expect(() => gc!()).not.toThrow();
  });

  it('collects once, at the first quiet look after the heap grew, and not while requests arrive', () => {
    let collections = 0;
    const collector = new IdleCollector(() => collections++);
    collector.request();
    // What a busy spell leaves: ~40 MB of objects the heap had to grow for.
    let kept: { n: number; s: string }[][] = [];
    for (let i = 0; i < 200; i++) kept.push(Array.from({ length: 5000 }, (_, n) => ({ n, s: `value ${n} ${i}` })));
    expect(kept.length).toBe(200);
    expect(collector.tick()).toBe(false); // a request since the last look: still busy
    collector.request();
    expect(collector.tick()).toBe(false);
    expect(collections).toBe(0);
    kept = [];
    expect(collector.tick()).toBe(true); // quiet: collect
    expect(collections).toBe(1);
    expect(collector.tick()).toBe(false); // nothing new
    expect(collections).toBe(1);
    collector.stop();
  });

  it('does not collect after a lone request that grew nothing', () => {
    let collections = 0;
    const collector = new IdleCollector(() => collections++);
    collector.request();
    expect(collector.tick()).toBe(false);
    expect(collector.tick()).toBe(false);
    expect(collections).toBe(0);
    collector.stop();
  });
});
