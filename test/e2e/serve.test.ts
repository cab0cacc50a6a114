import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../helpers/cli.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';

function strip(org: any) {
  const { attributes, relationships, ...rest } = org;
  const { 'created-at': _c, 'external-id': _e, ...attrs } = attributes;
  return { ...rest, attributes: attrs, relationships: Object.keys(relationships) };
}

describe('berth serve, and the CLI with --server', () => {
  const tmp = tempDb();
  const local = tempDb();
  let server: ServeProcess;
  let token: string;

  beforeAll(async () => {
    server = await startServe(tmp.db);
    token = server.token!;
  });
  afterAll(() => {
    if (server && server.child.exitCode === null) server.child.kill('SIGKILL');
    tmp.cleanup();
    local.cleanup();
  });

  it('binds loopback and answers the ping', async () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const res = await fetch(`${server.url}/api/v2/ping`);
    expect(res.status).toBe(204);
    expect(res.headers.get('tfp-api-version')).toBeTruthy();
  });

  it('rejects requests without a token', async () => {
    const res = await fetch(`${server.url}/api/v2/organizations`);
    expect(res.status).toBe(401);
    expect(res.headers.get('content-type')).toContain('application/vnd.api+json');
  });

  it('gives the same results through the server as in local mode', async () => {
    const remote = { BERTH_SERVER: server.url };
    const admin = { ...remote, BERTH_TOKEN: token };
    expect((await runCli(['user', 'create', 'alice', '--email', 'alice@acme.test'], admin)).code).toBe(0);
    const tok = await runCli(['token', 'create', '--user', 'alice'], admin);
    expect(tok.code).toBe(0);
    const alice = { ...remote, BERTH_TOKEN: tok.stdout.trim() };

    const created = await runCli(['org', 'create', 'acme', '--email', 'ops@acme.test', '--json'], alice);
    expect(created.code).toBe(0);
    const listed = await runCli(['org', 'list', '--json'], alice);
    expect(listed.code).toBe(0);
    const remoteOrgs = JSON.parse(listed.stdout);
    expect(remoteOrgs).toHaveLength(1);
    expect(remoteOrgs[0]).toEqual(JSON.parse(created.stdout));

    const localEnv = { BERTH_DB: local.db };
    expect((await runCli(['org', 'create', 'acme', '--email', 'ops@acme.test'], localEnv)).code).toBe(0);
    const localOrgs = JSON.parse((await runCli(['org', 'list', '--json'], localEnv)).stdout);
    expect(localOrgs.map(strip)).toEqual(remoteOrgs.map(strip));

    // Errors come back the same way too.
    const missing = await runCli(['org', 'show', 'nope'], alice);
    expect(missing.code).toBe(3);
    expect(missing.stderr).toContain('Error: not found');
  });

  it('shares its database file with a local-mode CLI process', async () => {
    const viaLocal = await runCli(['org', 'create', 'side-door', '--email', 's@d.test'], { BERTH_DB: tmp.db });
    expect(viaLocal.code).toBe(0);
    const viaServer = await runCli(['org', 'show', 'side-door', '--json'], {
      BERTH_SERVER: server.url,
      BERTH_TOKEN: token,
    });
    expect(viaServer.code).toBe(0);
    expect(JSON.parse(viaServer.stdout).id).toBe('side-door');
  });

  it('logs one line per request with method, path, status and time', async () => {
    await expect
      .poll(() => server.stderr(), { timeout: 5000 })
      .toMatch(/GET \/api\/v2\/organizations 200 \d+(\.\d+)?ms/);
    await expect.poll(() => server.stderr(), { timeout: 5000 }).toMatch(/POST \/api\/v2\/organizations 201 /);
  });

  it('prints the site-admin token only on the first start of a database', async () => {
    expect(await server.stop()).toBe(0);
    expect(server.stderr()).toContain('berth stopped');
    const again = await startServe(tmp.db);
    expect(await again.stop()).toBe(0);
    expect(again.token).toBeNull();
    expect(again.stderr()).not.toContain('site-administrator token was created');
    // The organization created before the restart is still there.
    const orgs = await runCli(['org', 'list', '--json'], { BERTH_DB: tmp.db });
    expect(JSON.parse(orgs.stdout).map((o: any) => o.id)).toEqual(['acme', 'side-door']);
  });
});
