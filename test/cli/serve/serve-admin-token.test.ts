import { afterAll, describe, expect, it } from 'vitest';
import { join } from 'node:path';
import { runCli, tempDb } from '../../helpers/cli.js';
import { startServe, type ServeProcess } from '../../helpers/serve.js';

// Issue 33: a start that failed (the port in use) minted the site-administrator token and never
// showed it; the next start found a token and printed none.
describe('serve: the site-administrator token of a failed start', () => {
  const tmp = tempDb();
  const servers: ServeProcess[] = [];
  afterAll(async () => {
    for (const s of servers) await s.stop();
    tmp.cleanup();
  });

  it('is not minted when serve cannot listen, and the next start prints it', async () => {
    const busy = await startServe(join(tmp.dir, 'busy.db'));
    servers.push(busy);
    const port = new URL(busy.url).port;
    const db = join(tmp.dir, 'fresh.db');
    const failed = await runCli(['serve', '--port', port, '--database', db, '--rate-limit', '0']);
    expect(failed.code).toBe(2);
    expect(failed.stderr).toContain('already in use');
    expect(failed.stderr).not.toContain('berth.');
    const next = await startServe(db);
    servers.push(next);
    expect(next.token, next.stderr()).toMatch(/^berth\./);
    const me = await runCli(['whoami', '--json', '--server', next.url, '--token', next.token!]);
    expect(me.code, me.stderr).toBe(0);
    expect(JSON.parse(me.stdout).attributes['site-admin']).toBe(true);
  });
});
