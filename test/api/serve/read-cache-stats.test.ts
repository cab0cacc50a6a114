import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReadCache } from '../../../src/api/read-cache.js';
import { startServer } from '../../../src/api/serve.js';
import { tempDb } from '../../helpers/cli.js';

describe('the read cache counters', () => {
  it('count GET lookups, hits and answers stored', () => {
    const cache = new ReadCache(() => 's', {
      maxEntries: 10,
      maxAgeMs: 1000,
      maxBodyBytes: 100,
      maxTotalChars: 1000,
      now: () => 0,
    });
    const key = ReadCache.key('Bearer t', '/api/v2/workspaces/ws-1');
    expect(cache.get(key, 's')).toBeNull();
    cache.set(key, 's', {}, '{}');
    expect(cache.get(key, 's')).not.toBeNull();
    expect(cache.get(key, 'moved')).toBeNull();
    expect(cache.counters).toEqual({ lookups: 3, hits: 1, stored: 1 });
  });

  /**
   * Starts serve on a fresh database with the read cache's counters written to a file, runs
   * a GET of `/api/v2/account/details` with each of `queries` (each answered 200), stops
   * serve and gives the counters it wrote.
   */
  async function statsAfter(
    queries: string[],
  ): Promise<{ enabled: boolean; lookups: number; hits: number; stored: number }> {
    const tmp = tempDb();
    const file = join(tmp.dir, 'read-cache.json');
    try {
      const server = await startServer({
        host: '127.0.0.1',
        port: 0,
        database: tmp.db,
        log: () => {},
        rateLimit: 0,
        readCacheStatsFile: file,
      });
      for (const query of queries) {
        const res = await fetch(`${server.url}/api/v2/account/details${query}`, {
          headers: { authorization: `Bearer ${server.createdToken}` },
        });
        expect(res.status).toBe(200);
        await res.arrayBuffer();
      }
      await server.close();
      return JSON.parse(readFileSync(file, 'utf8'));
    } finally {
      tmp.cleanup();
    }
  }

  it('serve writes them to readCacheStatsFile (BERTH_READ_CACHE_STATS) when it stops', async () => {
    const stats = await statsAfter(['', '']);
    expect(stats).toMatchObject({ enabled: true, lookups: 2, stored: 1 });
    // The second is a hit unless the database moved in between (it does not: nothing writes).
    expect(stats.hits).toBe(1);
  });

  it('serve stops keeping most answers while none is asked for again (ReadCache.wantsAnswer)', async () => {
    // 800 different URLs, each asked once: no kept answer is ever asked for again.
    const stats = await statsAfter(Array.from({ length: 800 }, (_, i) => `?n=${i}`));
    expect(stats).toMatchObject({ lookups: 800, hits: 0 });
    // Every answer kept at first, then one miss in 16.
    expect(stats.stored).toBeGreaterThan(100);
    expect(stats.stored).toBeLessThan(600);
  });
});
