import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReadCache } from '../../src/api/read-cache.js';
import { startServer } from '../../src/api/serve.js';
import { tempDb } from '../helpers/cli.js';

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

  it('serve writes them to readCacheStatsFile (BERTH_READ_CACHE_STATS) when it stops', async () => {
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
      const get = async () => {
        const res = await fetch(`${server.url}/api/v2/account/details`, {
          headers: { authorization: `Bearer ${server.createdToken}` },
        });
        expect(res.status).toBe(200);
        await res.arrayBuffer();
      };
      await get();
      await get();
      await server.close();
      const stats = JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      expect(stats).toMatchObject({ enabled: true, lookups: 2, stored: 1 });
      // The second is a hit unless the database moved in between (it does not: nothing writes).
      expect(stats.hits).toBe(1);
    } finally {
      tmp.cleanup();
    }
  });

  it('serve stops keeping most answers while none is asked for again (ReadCache.wantsAnswer)', async () => {
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
      // 800 different URLs, each asked once: no kept answer is ever asked for again.
      for (let i = 0; i < 800; i++) {
        const res = await fetch(`${server.url}/api/v2/account/details?n=${i}`, {
          headers: { authorization: `Bearer ${server.createdToken}` },
        });
        expect(res.status).toBe(200);
        await res.arrayBuffer();
      }
      await server.close();
      const stats = JSON.parse(readFileSync(file, 'utf8')) as { lookups: number; hits: number; stored: number };
      expect(stats).toMatchObject({ lookups: 800, hits: 0 });
      // Every answer kept at first, then one miss in 16.
      expect(stats.stored).toBeGreaterThan(100);
      expect(stats.stored).toBeLessThan(600);
    } finally {
      tmp.cleanup();
    }
  });
});
