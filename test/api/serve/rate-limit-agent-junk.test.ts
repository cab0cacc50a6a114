import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../../../src/api/serve.js';
import { tempDb } from '../../helpers/cli.js';

/**
 * Made-up agent tokens on the agent protocol (`/api/agent`) are failed authentications of their
 * address, as made-up tokens on /api/v2 are: past the address's budget for those, 429; the
 * budget of the address's tokenless routes and of known tokens is untouched.
 */
describe('made-up agent tokens are rate limited', () => {
  const tmp = tempDb();
  const NOW = new Date('2026-06-30T12:00:00.000Z');
  let server: RunningServer;

  beforeAll(async () => {
    // A clock that stands still: every request falls in one window, whatever the machine's speed.
    server = await startServer({
      host: '127.0.0.1',
      port: 0,
      database: tmp.db,
      log: () => {},
      clock: { now: () => NOW },
    });
  });
  afterAll(async () => {
    await server?.close();
    tmp.cleanup();
  });

  it('answers 30 of 60 pings with random agent tokens 401 and the rest 429; ping and a known token still get in', async () => {
    const admin = server.createdToken!;
    expect(
      (await fetch(`${server.url}/api/v2/organizations`, { headers: { Authorization: `Bearer ${admin}` } })).status,
    ).toBe(200);
    const statuses: number[] = [];
    for (let i = 0; i < 60; i++) {
      const res = await fetch(`${server.url}/api/agent/ping`, {
        method: 'POST',
        headers: {
          Authorization: `Bearer berth.${randomBytes(8).toString('hex')}.${randomBytes(24).toString('hex')}`,
          'Content-Type': 'application/json',
        },
        body: '{}',
      });
      await res.arrayBuffer();
      statuses.push(res.status);
      if (res.status === 429) expect(res.headers.get('retry-after')).toBe('1');
    }
    expect(statuses.filter((s) => s === 401)).toHaveLength(30);
    expect(statuses.filter((s) => s === 429)).toHaveLength(30);
    // The same address's failed authentications on /api/v2 share that bucket, now spent.
    expect(
      (await fetch(`${server.url}/api/v2/organizations`, { headers: { Authorization: 'Bearer berth.x.y' } })).status,
    ).toBe(429);
    const ping = await fetch(`${server.url}/api/v2/ping`);
    expect(ping.status).toBe(204);
    expect(ping.headers.get('x-ratelimit-remaining')).toBe('29');
    const known = await fetch(`${server.url}/api/v2/organizations`, { headers: { Authorization: `Bearer ${admin}` } });
    expect(known.status).toBe(200);
    expect(known.headers.get('x-ratelimit-remaining')).toBe('28');
  });
});
