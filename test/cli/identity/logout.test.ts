import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli, tempDb } from '../../helpers/cli.js';
import { startServe, type ServeProcess } from '../../helpers/serve.js';

// Issue 33: there was no way to log out, and a 401 did not say which server refused which token.
describe('berth logout, config unset token, and what a 401 says', () => {
  const tmp = tempDb();
  const home = join(tmp.dir, 'home');
  const config = join(tmp.dir, 'config.json');
  let server: ServeProcess;
  let host: string;
  let token: string;
  const cli = (args: string[], env: Record<string, string> = {}) =>
    runCli(args, { HOME: home, BERTH_CONFIG: config, ...env });
  const stored = () => JSON.parse(readFileSync(config, 'utf8'));

  beforeAll(async () => {
    mkdirSync(home, { recursive: true });
    server = await startServe(tmp.db);
    host = new URL(server.url).host;
    const admin = { BERTH_SERVER: server.url, BERTH_TOKEN: server.token! };
    expect((await cli(['user', 'create', 'alice', '--email', 'a@a.test'], admin)).code).toBe(0);
    token = (await cli(['token', 'create', '--user', 'alice'], admin)).stdout.trim();
  });
  afterAll(async () => {
    await server?.stop();
    tmp.cleanup();
  });

  it('logout removes the token login stored for the server; the profile keeps its server', async () => {
    expect((await cli(['login', server.url, '--token', token])).code).toBe(0);
    expect(stored().credentials[host]).toEqual({ token });
    expect((await cli(['whoami'])).code).toBe(0);
    const out = await cli(['logout']);
    expect(out.code, out.stderr).toBe(0);
    expect(out.stdout).toBe(
      `Logged out of ${host}: removed the token stored by berth login for ${host} from ${config}.\n`,
    );
    expect(stored().credentials[host]).toBeUndefined();
    expect(stored().profiles.default.server).toBe(server.url);
    // Nothing left to send: the 401 says which server, and how to log in.
    const after = await cli(['whoami']);
    expect(after.code).toBe(6);
    expect(after.stderr).toContain(
      `No token was given for server ${server.url}: log in with \`berth login ${server.url}\`.`,
    );
    const again = await cli(['logout', server.url, '--json']);
    expect(JSON.parse(again.stdout)).toMatchObject({ host, removed: false, 'token-still-from': null });
  });

  it('logout says when a token from elsewhere still applies', async () => {
    expect((await cli(['login', server.url, '--token', token])).code).toBe(0);
    const out = await cli(['logout', server.url], { TFE_TOKEN: token });
    expect(out.code).toBe(0);
    expect(out.stdout).toContain(`A token for ${host} still comes from environment TFE_TOKEN: remove it there.`);
    expect(stored().credentials[host]).toBeUndefined();
  });

  it('config unset token removes the token the profile uses', async () => {
    expect((await cli(['login', server.url, '--token', token, '--profile', 'work'])).code).toBe(0);
    expect(stored().credentials[host]).toEqual({ token });
    const r = await cli(['config', 'unset', 'token', '--profile', 'work']);
    expect(r.code, r.stderr).toBe(0);
    expect(stored().credentials[host]).toBeUndefined();
    expect((await cli(['whoami', '--profile', 'work'])).code).toBe(6);
  });

  it('a 401 names the server and where the refused token came from', async () => {
    const admin = { BERTH_SERVER: server.url, BERTH_TOKEN: server.token! };
    const revoked = (await cli(['token', 'create', '--user', 'alice'], admin)).stdout.trim();
    const id = JSON.parse(
      (await cli(['whoami', '--json'], { BERTH_SERVER: server.url, BERTH_TOKEN: revoked })).stdout,
    ).id;
    expect((await cli(['token', 'revoke', id], { BERTH_SERVER: server.url, BERTH_TOKEN: token })).code).toBe(0);
    const refused = (source: string) =>
      `The server ${server.url} refused the token from ${source} (unknown, revoked or expired): log in again with \`berth login ${server.url}\`, or change it there.`;

    const viaEnv = await cli(['org', 'list'], { BERTH_SERVER: server.url, BERTH_TOKEN: revoked });
    expect(viaEnv.code).toBe(6);
    expect(viaEnv.stderr).toContain(refused('environment BERTH_TOKEN'));
    const viaFlag = await cli(['org', 'list', '--server', server.url, '--token', revoked]);
    expect(viaFlag.stderr).toContain(refused('flag --token'));

    mkdirSync(join(home, '.terraform.d'), { recursive: true });
    const tfrc = join(home, '.terraform.d', 'credentials.tfrc.json');
    writeFileSync(tfrc, JSON.stringify({ credentials: { [host]: { token: revoked } } }));
    const viaTerraform = await cli(['org', 'list'], { BERTH_SERVER: server.url });
    expect(viaTerraform.stderr).toContain(refused('~/.terraform.d/credentials.tfrc.json'));
    writeFileSync(tfrc, '{}');

    writeFileSync(
      config,
      JSON.stringify({ profiles: { default: { server: server.url } }, credentials: { [host]: { token: revoked } } }),
    );
    const viaLogin = await cli(['org', 'list']);
    expect(viaLogin.stderr).toContain(refused(`berth login (${host})`));
    expect(existsSync(config)).toBe(true);
  });
});
