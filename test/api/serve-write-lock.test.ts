import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../src/api/serve.js';
import { tempDb } from '../helpers/cli.js';
import { holdWriteLock } from '../helpers/lock-holder.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * better-sqlite3 is synchronous: a write that waited for SQLite's write lock inside SQLite (its
 * busy timeout) froze the whole server. Here another process holds the lock, and `serve` must
 * keep answering everything that does not need it, while the write waits its turn.
 */
describe('serve while another process holds the write lock', () => {
  const tmp = tempDb();
  let server: RunningServer;
  let token: string;
  const lines: string[] = [];

  const call = async (method: string, path: string, body?: unknown) => {
    const started = performance.now();
    const res = await fetch(`${server.url}${path}`, {
      method,
      headers: { Authorization: `Bearer ${token}`, 'Content-Type': 'application/vnd.api+json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.text();
    return { status: res.status, headers: res.headers, text, ms: performance.now() - started, at: performance.now() };
  };
  const workspace = (name: string) => ({ data: { type: 'workspaces', attributes: { name } } });

  /** Reads (each a new URL, so that the read cache cannot answer) and /healthz, one after another, for `ms`. */
  const readFor = async (ms: number) => {
    const seen: { path: string; status: number; ms: number }[] = [];
    const until = performance.now() + ms;
    for (let i = 0; performance.now() < until; i++) {
      for (const path of [
        '/healthz',
        `/api/v2/organizations/acme/workspaces?page[number]=${i + 1}`,
        `/api/v2/organizations/acme?i=${i}`,
      ]) {
        const r = await call('GET', path);
        seen.push({ path, status: r.status, ms: r.ms });
      }
      await sleep(40);
    }
    return seen;
  };

  beforeAll(async () => {
    server = await startServer({
      host: '127.0.0.1',
      port: 0,
      database: tmp.db,
      log: (l) => lines.push(l),
      rateLimit: 0,
    });
    token = server.createdToken!;
    const org = await call('POST', '/api/v2/organizations', {
      data: { type: 'organizations', attributes: { name: 'acme', email: 'a@acme.test' } },
    });
    expect(org.status, org.text).toBe(201);
    expect((await call('POST', '/api/v2/organizations/acme/workspaces', workspace('first'))).status).toBe(201);
  });
  afterAll(async () => {
    await server?.close();
    tmp.cleanup();
  });

  it('reads and /healthz answer within 50 ms while a write waits 3 s for the lock; the write then succeeds at once', async () => {
    await readFor(300); // warm up
    const holder = await holdWriteLock(tmp.db, 3000);
    const write = call('POST', '/api/v2/organizations/acme/workspaces', workspace('waited'));
    const seen = await readFor(2500);
    const released = await holder.released;
    const written = await write;
    expect(written.status, written.text).toBe(201);
    expect(seen.length).toBeGreaterThan(30);
    expect(seen.filter((r) => r.status !== 200)).toEqual([]);
    // Within 50 ms; on a loaded test machine a few requests may be slower for reasons of their
    // own (scheduling, garbage collection), none near the 3 s the lock is held.
    const ms = seen.map((r) => r.ms).sort((a, b) => a - b);
    const at = (q: number) => ms[Math.floor(ms.length * q)].toFixed(1);
    console.log(
      `write lock held 3 s by another process: ${ms.length} reads, p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, ` +
        `max ${ms.at(-1)!.toFixed(1)} ms; the waiting write done ${Math.round(written.at - released)} ms after the release`,
    );
    expect(ms[Math.floor(ms.length * 0.9)], ms.join(' ')).toBeLessThan(50);
    expect(ms.at(-1), ms.join(' ')).toBeLessThan(250);
    // The write went through soon after the lock was released (it polls for it).
    expect(written.at - released).toBeLessThan(500);
    expect(lines.join('\n')).not.toMatch(/unexpected error|database unavailable/);
  });

  it('answers a write 503 with Retry-After once it waited 10 s for the lock, and keeps serving reads meanwhile', async () => {
    const holder = await holdWriteLock(tmp.db, 12_000);
    try {
      const write = call('POST', '/api/v2/organizations/acme/workspaces', workspace('refused'));
      const seen = await readFor(2000);
      expect(seen.filter((r) => r.status !== 200)).toEqual([]);
      const ms = seen.map((r) => r.ms).sort((a, b) => a - b);
      expect(ms[Math.floor(ms.length * 0.9)], ms.join(' ')).toBeLessThan(50);
      expect(ms.at(-1), ms.join(' ')).toBeLessThan(250);
      const refused = await write;
      expect(refused.status, refused.text).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(JSON.parse(refused.text).errors[0]).toMatchObject({ status: '503', title: 'service unavailable' });
      expect(refused.ms).toBeGreaterThan(9_500);
      expect(refused.ms).toBeLessThan(11_500);
    } finally {
      holder.kill();
    }
    // Nothing of the refused write was stored.
    const list = await call('GET', '/api/v2/organizations/acme/workspaces?search[name]=refused');
    expect(JSON.parse(list.text).data).toEqual([]);
  }, 30_000);
});
