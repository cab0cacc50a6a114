import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../../helpers/cli.js';
import { startServe, type ServeProcess } from '../../helpers/serve.js';

/** `berth login --web`: a one-time sign-in link to the console of `berth serve`. */
describe('berth login --web', () => {
  const tmp = tempDb();
  const home = join(tmp.dir, 'home');
  const config = join(home, '.config', 'berth', 'config.json');
  const bin = join(tmp.dir, 'bin');
  let server: ServeProcess;
  let aliceToken: string;
  const cli = (args: string[], env: Record<string, string> = {}) =>
    runCli(args, { HOME: home, BERTH_CONFIG: config, DISPLAY: '', WAYLAND_DISPLAY: '', ...env });

  const exchange = async (code: string) =>
    fetch(`${server.url}/api/v2/console/sign-ins`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/vnd.api+json' },
      body: JSON.stringify({ data: { type: 'console-sign-ins', attributes: { code } } }),
    });

  beforeAll(async () => {
    mkdirSync(home, { recursive: true });
    server = await startServe(tmp.db);
    const admin = { BERTH_SERVER: server.url, BERTH_TOKEN: server.token! };
    expect((await cli(['user', 'create', 'alice', '--email', 'a@a.test'], admin)).code).toBe(0);
    aliceToken = (await cli(['token', 'create', '--user', 'alice'], admin)).stdout.trim();
    // alice logs in the usual way first: --web then uses the stored token.
    expect((await cli(['login', server.url, '--token', aliceToken])).code).toBe(0);
  });
  afterAll(async () => {
    await server?.stop();
    tmp.cleanup();
  });

  it('--json prints the link and its expiry; the code works once, for the same user', async () => {
    const r = await cli(['login', '--web', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const out = JSON.parse(r.stdout) as { url: string; 'expires-at': string };
    expect(out.url).toMatch(new RegExp(`^${server.url.replace(/\/$/, '')}/#sign-in=[A-Za-z0-9_-]{43,}$`));
    const left = Date.parse(out['expires-at']) - Date.now();
    expect(left).toBeGreaterThan(30_000);
    expect(left).toBeLessThanOrEqual(60_000);
    const code = out.url.split('#sign-in=')[1];

    const first = await exchange(code);
    expect(first.status).toBe(201);
    const token = ((await first.json()) as { data: { attributes: { token: string } } }).data.attributes.token;
    const me = await fetch(`${server.url}/api/v2/whoami`, { headers: { Authorization: `Bearer ${token}` } });
    expect(((await me.json()) as { data: { attributes: { username: string } } }).data.attributes.username).toBe(
      'alice',
    );
    expect((await exchange(code)).status).toBe(404);

    // Nothing of the code or the minted token in serve's log.
    const log = () => server.stderr().slice(server.stderr().indexOf('berth listening'));
    // The access log is written in batches: wait for the last request's line (however long a
    // loaded machine takes to write it).
    await expect.poll(() => log().includes('sign-ins 404'), { timeout: 20_000, interval: 50 }).toBe(true);
    expect(log()).toMatch(/POST \/api\/v2\/console\/sign-ins 201 /);
    expect(log()).not.toContain(code);
    expect(log()).not.toContain(token);
  });

  it('prints the link with "valid for 60 seconds, once"; a server named as the argument uses its stored token', async () => {
    const r = await cli(['login', '--web', server.url]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('valid for 60 seconds, once');
    expect(r.stdout).toMatch(/#sign-in=[A-Za-z0-9_-]{43,}/);
  });

  it('opens the link with xdg-open when there is a display, and does not fail when the opener does', async () => {
    mkdirSync(bin, { recursive: true });
    const seen = join(tmp.dir, 'opened.txt');
    writeFileSync(join(bin, 'xdg-open'), `#!/bin/sh\necho "$1" > '${seen}'\n`);
    chmodSync(join(bin, 'xdg-open'), 0o755);
    const path = `${bin}:${process.env.PATH ?? ''}`;
    const r = await cli(['login', '--web', '--json'], { DISPLAY: ':99', PATH: path });
    expect(r.code, r.stderr).toBe(0);
    const url = (JSON.parse(r.stdout) as { url: string }).url;
    // The opener runs on its own: wait for what it wrote.
    await expect.poll(() => existsSync(seen), { timeout: 20_000, interval: 50 }).toBe(true);
    expect(readFileSync(seen, 'utf8').trim()).toBe(url);

    // --no-open, or an opener that is missing: the link is printed all the same.
    const quiet = await cli(['login', '--web', '--no-open', '--json'], { DISPLAY: ':99', PATH: path });
    expect(quiet.code).toBe(0);
    const missing = await cli(['login', '--web'], { DISPLAY: ':99', PATH: '/nonexistent' });
    expect(missing.code, missing.stderr).toBe(0);
    expect(missing.stdout).toContain('#sign-in=');
  });

  it('needs a server and a user token', async () => {
    const local = await runCli(['login', '--web'], { HOME: join(tmp.dir, 'nobody'), DISPLAY: '' });
    expect(local.code).toBe(2);
    expect(local.stderr).toMatch(/needs a server \(the web console lives in berth serve\)/);

    const unknown = await runCli(['login', '--web', 'http://127.0.0.1:9'], { HOME: join(tmp.dir, 'nobody') });
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/no token for 127\.0\.0\.1:9/);

    const admin = { BERTH_SERVER: server.url, BERTH_TOKEN: server.token! };
    expect((await cli(['org', 'create', 'acme', '--email', 'a@a.test'], admin)).code).toBe(0);
    expect((await cli(['team', 'create', 'ops', '--org', 'acme'], admin)).code).toBe(0);
    const teamToken = (await cli(['token', 'create', '--team', 'ops', '--org', 'acme'], admin)).stdout.trim();
    const refused = await cli(['login', '--web', '--server', server.url, '--token', teamToken]);
    expect(refused.code).not.toBe(0);
    expect(refused.stderr).toMatch(/use a user token/);
  });
});
