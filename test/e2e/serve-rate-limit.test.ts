import { spawn } from 'node:child_process';
import { afterAll, describe, expect, it } from 'vitest';
import { BIN, tempDb } from '../helpers/cli.js';
import { startServe } from '../helpers/serve.js';

describe('berth serve --rate-limit', () => {
  const tmp = tempDb();
  afterAll(() => tmp.cleanup());

  it('limits each token to N requests per second, answering 429 with Retry-After beyond', async () => {
    const server = await startServe(tmp.db, ['--rate-limit', '2']);
    try {
      const headers = { Authorization: `Bearer ${server.token}` };
      const first = await fetch(`${server.url}/api/v2/ping`, { headers });
      expect(first.headers.get('x-ratelimit-limit')).toBe('2');
      // Ten at once: at two per second, most are refused however the machine schedules them.
      const burst = await Promise.all(
        Array.from({ length: 10 }, () => fetch(`${server.url}/api/v2/organizations`, { headers })),
      );
      const refused = burst.filter((r) => r.status === 429);
      expect(refused.length).toBeGreaterThan(0);
      expect(burst.every((r) => r.status === 200 || r.status === 429)).toBe(true);
      expect(refused[0].headers.get('retry-after')).toMatch(/^[1-9]\d*$/);
      expect(((await refused[0].json()) as any).errors[0].status).toBe('429');
      // The access log is written in batches, and travels through a pipe: wait for the line.
      await expect.poll(() => server.stderr(), { timeout: 5000 }).toMatch(/GET \/api\/v2\/organizations 429 /);
    } finally {
      expect(await server.stop()).toBe(0);
    }
  });

  it('takes the limit from BERTH_RATE_LIMIT', async () => {
    const child = spawn(process.execPath, [BIN, 'serve', '--port', '0', '--db', tmp.db], {
      env: { ...process.env, NO_COLOR: '1', BERTH_DB: '', BERTH_RATE_LIMIT: '7' },
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    try {
      let err = '';
      const url = await new Promise<string>((resolve, reject) => {
        child.stderr.on('data', (d) => {
          err += d;
          const m = /berth listening on (http:\/\/\S+)/.exec(err);
          if (m) resolve(m[1]);
        });
        child.once('exit', (code) => reject(new Error(`serve exited with ${code}: ${err}`)));
      });
      const res = await fetch(`${url}/api/v2/ping`);
      expect(res.status).toBe(204);
      expect(res.headers.get('x-ratelimit-limit')).toBe('7');
      expect(res.headers.get('x-ratelimit-remaining')).toBe('6');
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => (child.exitCode !== null ? r(null) : child.once('exit', r)));
    }
  });
});
