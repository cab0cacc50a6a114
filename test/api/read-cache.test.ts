import { describe, expect, it } from 'vitest';
import { ReadCache } from '../../src/api/read-cache.js';
import { openStore } from '../../src/store/open.js';

describe('ReadCache', () => {
  it('answers only while the stamp is the one taken before computing, and within the age limit', () => {
    let stamp = 'a';
    let now = 0;
    const cache = new ReadCache(() => stamp, { maxEntries: 10, maxAgeMs: 1000, maxBodyBytes: 100, now: () => now });
    const key = ReadCache.key('Bearer t', '/api/v2/workspaces/ws-1');
    cache.set(key, 'a', { 'content-type': 'application/vnd.api+json' }, '{"data":1}');
    expect(cache.get(key)?.body).toBe('{"data":1}');
    now = 1001;
    expect(cache.get(key)).toBeNull();
    now = 0;
    cache.set(key, 'a', {}, 'x');
    stamp = 'b';
    expect(cache.get(key)).toBeNull();
    // Computed while the database was at an older stamp: never served.
    cache.set(key, 'a', {}, 'x');
    expect(cache.get(key)).toBeNull();
  });

  it('keys by token and target, keeps at most maxEntries, and skips large bodies', () => {
    const cache = new ReadCache(() => 's', { maxEntries: 2, maxAgeMs: 1000, maxBodyBytes: 5, now: () => 0 });
    const k = (token: string, path: string) => ReadCache.key(token, path);
    expect(k('Bearer a', '/x')).not.toBe(k('Bearer b', '/x'));
    expect(k('Bearer a', '/x')).not.toBe(k('Bearer a', '/x?page[number]=2'));
    cache.set(k('a', '1'), 's', {}, '1');
    cache.set(k('a', '2'), 's', {}, '2');
    cache.set(k('a', '3'), 's', {}, '3');
    expect(cache.size).toBe(2);
    expect(cache.get(k('a', '1'))).toBeNull();
    cache.set(k('a', 'big'), 's', {}, '123456');
    expect(cache.get(k('a', 'big'))).toBeNull();
  });
});

describe('the store change stamp', () => {
  it('moves on every write of this connection, and on commits of another connection', async () => {
    const dir = (await import('node:fs')).mkdtempSync((await import('node:path')).join((await import('node:os')).tmpdir(), 'berth-stamp-'));
    const path = `${dir}/s.db`;
    const a = await openStore(path);
    const b = await openStore(path);
    try {
      const s0 = a.changeStamp!();
      expect(a.changeStamp!()).toBe(s0);
      await a.db.insertInto('settings').values({ key: 'x', value: '1' }).execute();
      const s1 = a.changeStamp!();
      expect(s1).not.toBe(s0);
      await b.db.insertInto('settings').values({ key: 'y', value: '2' }).execute();
      expect(a.changeStamp!()).not.toBe(s1);
    } finally {
      await a.close();
      await b.close();
    }
  });
});
