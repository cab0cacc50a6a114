import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/api/serve.js';
import { tempDb } from '../../helpers/cli.js';
import { holdWriteLock } from '../../helpers/lock-holder.js';

/**
 * better-sqlite3 is synchronous: a write that waited for SQLite's write lock inside SQLite (its
 * busy timeout) froze the whole server. Here another process holds the lock, and `serve` must
 * keep answering everything that does not need it, while the write waits its turn.
 *
 * Checked by events, not by durations (a loaded machine makes any request slow): every read is
 * answered while the lock is still held and the write still waits; a frozen server would answer
 * none of them before the write gave up or the lock was released. The durations are printed.
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

  /**
   * Reads (each a new URL, so that the read cache cannot answer) and /healthz, one after another,
   * `rounds` times; each notes whether `pending` (the waiting write) was still unanswered then.
   */
  const readWhile = async (rounds: number, pending: { settled: boolean }) => {
    const seen: { path: string; status: number; ms: number; writeWaiting: boolean }[] = [];
    for (let i = 0; i < rounds; i++) {
      for (const path of [
        '/healthz',
        `/api/v2/organizations/acme/workspaces?page[number]=${i + 1}`,
        `/api/v2/organizations/acme?i=${i}`,
      ]) {
        const r = await call('GET', path);
        seen.push({ path, status: r.status, ms: r.ms, writeWaiting: !pending.settled });
      }
    }
    return seen;
  };
  /** The write, started now, and whether it has been answered yet. */
  const waitingWrite = (name: string) => {
    const pending = { settled: false };
    const answer = call('POST', '/api/v2/organizations/acme/workspaces', workspace(name)).finally(
      () => (pending.settled = true),
    );
    return { pending, answer };
  };
  const figures = (seen: { ms: number }[]) => {
    const ms = seen.map((r) => r.ms).sort((a, b) => a - b);
    const at = (q: number) => ms[Math.floor(ms.length * q)].toFixed(1);
    return `${ms.length} reads, p50 ${at(0.5)} ms, p90 ${at(0.9)} ms, max ${ms.at(-1)!.toFixed(1)} ms`;
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

  it('reads and /healthz answer while a write waits for the lock; the write then succeeds once it is released', async () => {
    await readWhile(5, { settled: false }); // warm up
    const holder = await holdWriteLock(tmp.db, 'forever');
    try {
      const write = waitingWrite('waited');
      const seen = await readWhile(20, write.pending);
      expect(seen.filter((r) => r.status !== 200)).toEqual([]);
      // All answered while the write still waited (the lock is held until released below).
      expect(seen.filter((r) => !r.writeWaiting)).toEqual([]);
      const released = await holder.release();
      const written = await write.answer;
      expect(written.status, written.text).toBe(201);
      console.log(
        `write lock held by another process: ${figures(seen)}; ` +
          `the waiting write done ${Math.round(written.at - released)} ms after the release`,
      );
    } finally {
      holder.kill();
    }
    expect(lines.join('\n')).not.toMatch(/unexpected error|database unavailable/);
  });

  it('answers a write 503 with Retry-After once it waited 10 s for the lock, and keeps serving reads meanwhile', async () => {
    const holder = await holdWriteLock(tmp.db, 'forever');
    try {
      const write = waitingWrite('refused');
      const seen = await readWhile(10, write.pending);
      expect(seen.filter((r) => r.status !== 200)).toEqual([]);
      console.log(`write lock held by another process, the write to be refused: ${figures(seen)}`);
      // Held until the kill below: the write can only end by giving up.
      const refused = await write.answer;
      expect(refused.status, refused.text).toBe(503);
      expect(refused.headers.get('retry-after')).toBe('1');
      expect(JSON.parse(refused.text).errors[0]).toMatchObject({ status: '503', title: 'service unavailable' });
      // Not before the 10 s wait (a load can only make it later).
      expect(refused.ms).toBeGreaterThan(9_500);
    } finally {
      holder.kill();
    }
    // Nothing of the refused write was stored.
    const list = await call('GET', '/api/v2/organizations/acme/workspaces?search[name]=refused');
    expect(JSON.parse(list.text).data).toEqual([]);
  }, 30_000);
});
