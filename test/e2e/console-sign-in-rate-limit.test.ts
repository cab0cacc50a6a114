import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDb } from '../helpers/cli.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';

/** Trading sign-in codes needs no token, so serve limits it per client address like every tokenless request. */
describe('console sign-ins and the rate limit', () => {
  const tmp = tempDb();
  let server: ServeProcess;

  beforeAll(async () => {
    server = await startServe(tmp.db, ['--rate-limit', '3']);
  });
  afterAll(async () => {
    await server?.stop();
    tmp.cleanup();
  });

  it('answers 429 past the limit for guessed codes from one address', async () => {
    const body = JSON.stringify({ data: { type: 'console-sign-ins', attributes: { code: 'A'.repeat(43) } } });
    const statuses = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const res = await fetch(`${server.url}/api/v2/console/sign-ins`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/vnd.api+json' },
          body,
        });
        await res.text();
        return res.status;
      }),
    );
    expect(statuses.filter((s) => s === 404).length).toBeLessThanOrEqual(3);
    expect(statuses).toContain(429);
    expect(statuses.every((s) => s === 404 || s === 429)).toBe(true);
  });
});
