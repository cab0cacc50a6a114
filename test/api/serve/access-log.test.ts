import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { AccessLog, loggedPath } from '../../../src/api/access-log.js';
import { startServer, type RunningServer } from '../../../src/api/serve.js';
import { tempDb } from '../../helpers/cli.js';

describe('access log batches', () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  it('writes the lines of a burst together, at most maxDelayMs after the first', () => {
    const writes: string[] = [];
    const log = new AccessLog(
      (t) => writes.push(t),
      { maxDelayMs: 50, maxLines: 100 },
      () => new Date(0),
    );
    log.add('a');
    log.add('b');
    vi.advanceTimersByTime(49);
    expect(writes).toEqual([]);
    log.add('c');
    vi.advanceTimersByTime(1);
    const t = '1970-01-01T00:00:00.000Z';
    expect(writes).toEqual([`${t} a\n${t} b\n${t} c`]);
    // The next line starts a new batch.
    log.add('d');
    vi.advanceTimersByTime(50);
    expect(writes).toEqual([`${t} a\n${t} b\n${t} c`, `${t} d`]);
  });

  it('writes at once when maxLines are waiting, and flush writes the rest (and nothing when empty)', () => {
    const writes: string[] = [];
    let ms = 0;
    const log = new AccessLog(
      (t) => writes.push(t),
      { maxDelayMs: 50, maxLines: 3 },
      () => new Date(ms++),
    );
    for (const l of ['1', '2', '3', '4']) log.add(l);
    const at = (n: number) => new Date(n).toISOString();
    expect(writes).toEqual([`${at(0)} 1\n${at(1)} 2\n${at(2)} 3`]);
    log.flush();
    expect(writes).toEqual([`${at(0)} 1\n${at(1)} 2\n${at(2)} 3`, `${at(3)} 4`]);
    log.flush();
    vi.advanceTimersByTime(100);
    expect(writes).toHaveLength(2);
  });
});

describe('access log paths', () => {
  const SIG = 'c2lnbmF0dXJlLW9mLWEtbG9nLXVybC10aGF0LWlzLXNlY3JldA';

  it('leave the query out, and the expiry and signature of a log-read URL (signed in its path)', () => {
    expect(loggedPath('/api/v2/state-versions/sv-1/content?expires=1&signature=abc')).toBe(
      '/api/v2/state-versions/sv-1/content',
    );
    expect(loggedPath('/api/v2/workspaces/ws-1')).toBe('/api/v2/workspaces/ws-1');
    expect(loggedPath(`/api/v2/run-logs/plan-abc/1893456000/${SIG}?offset=0&limit=100`)).toBe(
      '/api/v2/run-logs/plan-abc/REDACTED',
    );
  });

  it('redact every spelling the router takes for the log route', () => {
    for (const target of [
      `/api/v2/run-logs/plan-abc/1893456000/${SIG}`,
      `/api/v2/run%2Dlogs/plan-abc/1893456000/${SIG}`,
      `/%61pi/v2/run-logs/plan-abc/1893456000/${SIG}`,
      `/api/v2/./run-logs/plan-abc/1893456000/${SIG}`,
      `/api/v2/x/../run-logs/plan-abc/1893456000/${SIG}`,
      `/api/v2/run-logs/plan-abc/1893456000/%${SIG}`,
      `http://berth.test/api/v2/run-logs/apply-abc/1893456000/${SIG}`,
    ]) {
      const logged = loggedPath(target);
      expect(logged, target).not.toContain(SIG);
      expect(logged, target).not.toContain('1893456000');
      expect(logged, target).toMatch(/\/REDACTED$/);
    }
  });
});

describe('serve access log', () => {
  const tmp = tempDb();
  let server: RunningServer;
  const lines: string[] = [];
  beforeAll(async () => {
    server = await startServer({
      host: '127.0.0.1',
      port: 0,
      database: tmp.db,
      log: (l) => lines.push(...l.split('\n')),
    });
  });
  afterAll(async () => {
    await server?.close();
    tmp.cleanup();
  });

  it('records a log-read request without its signature', async () => {
    const sig = 'bG9nLXNpZ25hdHVyZS1pbi10aGUtcGF0aC1vZi10aGUtdXJs';
    const res = await fetch(`${server.url}/api/v2/run-logs/plan-0123456789abcdef/1893456000/${sig}?offset=0`);
    expect(res.status).toBe(404);
    const id = res.headers.get('x-request-id')!;
    await expect.poll(() => lines.find((l) => l.endsWith(id))).toBeDefined();
    const line = lines.find((l) => l.endsWith(id))!;
    expect(line).toMatch(
      /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z GET \/api\/v2\/run-logs\/plan-0123456789abcdef\/REDACTED 404 /,
    );
    expect(lines.join('\n')).not.toContain(sig);
  });
});
