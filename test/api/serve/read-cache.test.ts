import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ReadCache } from '../../../src/api/read-cache.js';
import { startServer } from '../../../src/api/serve.js';
import { tempDb } from '../../helpers/cli.js';
import { openStore } from '../../../src/store/open.js';
import { sharedDatabase } from '../../helpers/store.js';

describe('ReadCache', () => {
  it('answers only while the stamp is the one taken before computing, and within the age limit', () => {
    let stamp = 'a';
    let now = 0;
    const cache = new ReadCache(() => stamp, {
      maxEntries: 10,
      maxAgeMs: 1000,
      maxBodyBytes: 100,
      maxTotalChars: 1000,
      now: () => now,
    });
    const key = ReadCache.key('Bearer t', '/api/v2/workspaces/ws-1');
    cache.set(key, 'a', { 'content-type': 'application/vnd.api+json' }, '{"data":1}');
    expect(cache.get(key, stamp)?.body).toBe('{"data":1}');
    now = 1001;
    expect(cache.get(key, stamp)).toBeNull();
    now = 0;
    cache.set(key, 'a', {}, 'x');
    stamp = 'b';
    expect(cache.get(key, stamp)).toBeNull();
    // Computed while the database was at an older stamp: never served.
    cache.set(key, 'a', {}, 'x');
    expect(cache.get(key, stamp)).toBeNull();
  });

  it('keys by token and target, keeps at most maxEntries, and skips large bodies', () => {
    const cache = new ReadCache(() => 's', {
      maxEntries: 2,
      maxAgeMs: 1000,
      maxBodyBytes: 5,
      maxTotalChars: 1000,
      now: () => 0,
    });
    const k = (token: string, path: string) => ReadCache.key(token, path);
    expect(k('Bearer a', '/x')).not.toBe(k('Bearer b', '/x'));
    expect(k('Bearer a', '/x')).not.toBe(k('Bearer a', '/x?page[number]=2'));
    cache.set(k('a', '1'), 's', {}, '1');
    cache.set(k('a', '2'), 's', {}, '2');
    cache.set(k('a', '3'), 's', {}, '3');
    expect(cache.size).toBe(2);
    expect(cache.get(k('a', '1'), 's')).toBeNull();
    expect(cache.get(k('a', '3'), 's')?.body).toBe('3');
    cache.set(k('a', 'big'), 's', {}, '123456');
    expect(cache.get(k('a', 'big'), 's')).toBeNull();
  });

  it('keeps at most maxTotalChars of bodies, dropping the oldest answers to make room', () => {
    const cache = new ReadCache(() => 's', {
      maxEntries: 100,
      maxAgeMs: 1000,
      maxBodyBytes: 10,
      maxTotalChars: 25,
      now: () => 0,
    });
    const k = (path: string) => ReadCache.key('a', path);
    for (const p of ['1', '2', '3']) cache.set(k(p), 's', {}, p.repeat(10));
    expect(cache.size).toBe(2);
    expect(cache.totalChars).toBe(20);
    expect(cache.get(k('1'), 's')).toBeNull();
    expect(cache.get(k('3'), 's')?.body).toBe('3333333333');
    // Replacing an answer counts its new body only; a dropped stale answer gives its room back.
    cache.set(k('3'), 's', {}, 'x');
    expect(cache.totalChars).toBe(11);
    expect(cache.get(k('2'), 't')).toBeNull();
    expect(cache.totalChars).toBe(1);
  });

  it('keeps one miss in 16 while kept answers are not asked for again, and all once they are', () => {
    let stamp = 0;
    const cache = new ReadCache(() => String(stamp), {
      maxEntries: 10_000,
      maxAgeMs: 1000,
      maxBodyBytes: 100,
      maxTotalChars: 1_000_000,
      now: () => 0,
    });
    const k = (i: number) => ReadCache.key('a', `/w/${i}`);
    /** `n` misses, each kept when the cache wants it, then the database moves on (a write). */
    const misses = (n: number, from: number) => {
      let wanted = 0;
      for (let i = from; i < from + n; i++) {
        expect(cache.get(k(i), String(stamp))).toBeNull();
        if (!cache.wantsAnswer()) continue;
        wanted++;
        cache.set(k(i), String(stamp), {}, 'x');
      }
      stamp++;
      return wanted;
    };
    // A fresh cache keeps every answer.
    expect(misses(10, 0)).toBe(10);
    // Writes as often as reads: no answer is asked for again, so keeping soon stops paying.
    misses(300, 10);
    expect(misses(1600, 310)).toBe(100);
    // Reads again: each sampled answer is asked for again, and soon every answer is kept.
    let round = 2000;
    for (let i = 0; i < 40; i++, round += 16) {
      for (let j = round; j < round + 16; j++) {
        if (cache.get(k(j), String(stamp))) continue;
        if (cache.wantsAnswer()) cache.set(k(j), String(stamp), {}, 'x');
        for (let again = 0; again < 4; again++) cache.get(k(j), String(stamp));
      }
    }
    expect(misses(10, 9000)).toBe(10);
  });
});

describe('the store change stamp', () => {
  it('stays while nothing is written, and moves on every write of this connection and on commits of another', async () => {
    const shared = await sharedDatabase();
    const a = await openStore(shared.location);
    const b = await openStore(shared.location);
    try {
      // Reads leave it as it is. (On PostgreSQL the stamp is the whole server's, and other tests
      // write to it meanwhile: look for a quiet moment rather than expect one.)
      let quiet = false;
      for (let attempt = 0; attempt < 100 && !quiet; attempt++) {
        const s = await a.changeStamp();
        await a.db.selectFrom('settings').selectAll().execute();
        await b.db.selectFrom('settings').selectAll().execute();
        quiet = (await a.changeStamp()) === s;
        if (!quiet) await new Promise((r) => setTimeout(r, 20));
      }
      expect(quiet).toBe(true);
      const s0 = await a.changeStamp();
      await a.db.insertInto('settings').values({ key: 'x', value: '1' }).execute();
      const s1 = await a.changeStamp();
      expect(s1).not.toBe(s0);
      await b.db.insertInto('settings').values({ key: 'y', value: '2' }).execute();
      expect(await a.changeStamp()).not.toBe(s1);
    } finally {
      await a.close();
      await b.close();
      await shared.cleanup();
    }
  });
});

describe("serve's read cache and a token's expiry", () => {
  it('answers 401 from the very moment the token expires: a kept answer is not served past it', async () => {
    const tmp = tempDb();
    const stats = join(tmp.dir, 'read-cache-stats.json');
    // serve's clock, which the app's token checks and the read cache both read: moved by hand.
    let now = Date.parse('2030-01-01T00:00:00.000Z');
    const server = await startServer({
      host: '127.0.0.1',
      port: 0,
      database: tmp.db,
      log: () => {},
      rateLimit: 0,
      clock: { now: () => new Date(now) },
      readCacheStatsFile: stats,
    });
    try {
      const call = (method: string, path: string, token: string, body?: unknown) =>
        fetch(`${server.url}/api/v2${path}`, {
          method,
          headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/vnd.api+json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
      const admin = server.createdToken!;
      const org = await call('POST', '/organizations', admin, {
        data: { type: 'organizations', attributes: { name: 'acme', email: 'a@acme.test' } },
      });
      expect(org.status).toBe(201);
      const expiry = now + 60_000;
      const made = await call('POST', '/organizations/acme/authentication-token', admin, {
        data: { type: 'authentication-tokens', attributes: { 'expired-at': new Date(expiry).toISOString() } },
      });
      expect(made.status).toBe(201);
      const token = ((await made.json()) as any).data.attributes.token as string;

      // Polled before the expiry: answered, from the cache after the first time.
      for (const at of [now, now + 30_000, expiry - 1, expiry - 1]) {
        now = at;
        const res = await call('GET', '/organizations/acme', token);
        expect(res.status).toBe(200);
        await res.text();
      }
      // The very moment it expires: 401, with the cache on as with it off.
      now = expiry;
      const expired = await call('GET', '/organizations/acme', token);
      expect(expired.status).toBe(401);
      await expired.text();
    } finally {
      await server.close();
    }
    // The cache did answer the polls (else this would prove nothing about it).
    expect(JSON.parse(readFileSync(stats, 'utf8')).hits).toBeGreaterThan(0);
    tmp.cleanup();
  });
});
