import { afterAll, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../helpers/cli.js';
import { startServe } from '../helpers/serve.js';

/** The CLI paces itself against a rate-limited server: a 429 is waited out and retried. */
describe('the CLI against a rate-limited server', () => {
  const tmp = tempDb();
  afterAll(() => tmp.cleanup());

  it('a bulk lock of 8 workspaces at 2 requests per second succeeds for every workspace', async () => {
    const local = { BERTH_DB: tmp.db };
    expect((await runCli(['org', 'create', 'acme', '--email', 'a@acme.test'], local)).code).toBe(0);
    for (let i = 0; i < 8; i++)
      expect((await runCli(['workspace', 'create', `app-${i}`, '--org', 'acme'], local)).code).toBe(0);

    const server = await startServe(tmp.db, ['--rate-limit', '2']);
    try {
      const remote = { BERTH_SERVER: server.url, BERTH_TOKEN: server.token ?? '', BERTH_ORG: 'acme' };
      const res = await runCli(['workspace', 'lock', '--all-matching', '--search', 'app-', '--yes', '--json'], remote);
      expect(res.code, res.stderr).toBe(0);
      // The server did refuse some requests: the CLI waited them out.
      await expect.poll(() => server.stderr(), { timeout: 5000 }).toMatch(/ 429 /);
      const list = await runCli(['workspace', 'list', '--all', '--json'], remote);
      expect(list.code, list.stderr).toBe(0);
      const locked = (JSON.parse(list.stdout) as Array<{ attributes: { locked: boolean } }>).map(
        (w) => w.attributes.locked,
      );
      expect(locked).toEqual(Array(8).fill(true));
    } finally {
      expect(await server.stop()).toBe(0);
    }
  }, 60_000);
});
