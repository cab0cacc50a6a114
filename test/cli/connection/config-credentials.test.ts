import { mkdirSync, statSync, writeFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { terraformTokenVariable } from '../../../src/cli/connection/connection.js';
import { runCli, tempDb } from '../../helpers/cli.js';
import { startServe, type ServeProcess } from '../../helpers/serve.js';

describe('configuration and credentials', () => {
  const tmp = tempDb();
  const home = join(tmp.dir, 'home');
  const config = join(home, '.config', 'berth', 'config.json');
  let server: ServeProcess;
  let adminToken: string;
  let aliceToken: string;
  let host: string;
  // Every run here gets the temporary HOME and its berth config.
  const cli = (args: string[], env: Record<string, string> = {}, stdin?: string) =>
    runCli(args, { HOME: home, BERTH_CONFIG: config, XDG_CONFIG_HOME: '', ...env }, stdin);

  beforeAll(async () => {
    mkdirSync(home, { recursive: true });
    server = await startServe(tmp.db);
    adminToken = server.token!;
    host = new URL(server.url).host;
    const admin = { BERTH_SERVER: server.url, BERTH_TOKEN: adminToken };
    expect((await cli(['user', 'create', 'alice', '--email', 'a@a.test'], admin)).code).toBe(0);
    aliceToken = (await cli(['token', 'create', '--user', 'alice'], admin)).stdout.trim();
    expect(
      (
        await cli(['org', 'create', 'acme', '--email', 'a@a.test'], {
          BERTH_SERVER: server.url,
          BERTH_TOKEN: aliceToken,
        })
      ).code,
    ).toBe(0);
  });
  afterAll(async () => {
    await server?.stop();
    tmp.cleanup();
  });

  const whoami = async (env: Record<string, string>) => {
    const r = await cli(['whoami', '--json'], env);
    return r.code === 0 ? JSON.parse(r.stdout).attributes : { code: r.code, stderr: r.stderr };
  };

  it('names Terraform token variables as Terraform does', () => {
    expect(terraformTokenVariable('app.terraform.io')).toBe('TF_TOKEN_app_terraform_io');
    expect(terraformTokenVariable('my-tfe.example.com')).toBe('TF_TOKEN_my__tfe_example_com');
  });

  it('takes the server from TFE_ADDRESS and the token from TFE_TOKEN', async () => {
    expect(await whoami({ TFE_ADDRESS: server.url, TFE_TOKEN: aliceToken })).toMatchObject({
      kind: 'user',
      username: 'alice',
    });
  });

  it('takes the token from TF_TOKEN_<host>, then from the Terraform credentials file', async () => {
    const hostVar = terraformTokenVariable(host);
    expect(await whoami({ TFE_ADDRESS: server.url, [hostVar]: aliceToken })).toMatchObject({ username: 'alice' });
    mkdirSync(join(home, '.terraform.d'), { recursive: true });
    writeFileSync(
      join(home, '.terraform.d', 'credentials.tfrc.json'),
      JSON.stringify({ credentials: { [host]: { token: adminToken } } }),
    );
    expect(await whoami({ TFE_ADDRESS: server.url })).toMatchObject({
      kind: 'user',
      username: 'admin',
      'site-admin': true,
    });
    // Earlier sources win over later ones.
    expect(await whoami({ TFE_ADDRESS: server.url, [hostVar]: aliceToken })).toMatchObject({ username: 'alice' });
    expect(await whoami({ TFE_ADDRESS: server.url, BERTH_TOKEN: aliceToken })).toMatchObject({ username: 'alice' });
  });

  it('BERTH_SERVER wins over TFE_ADDRESS; without any server the CLI is in local mode', async () => {
    const bogus = await whoami({ BERTH_SERVER: 'http://127.0.0.1:9', TFE_ADDRESS: server.url, TFE_TOKEN: aliceToken });
    expect(bogus.code).toBe(7);
    const localDb = { BERTH_DB: join(tmp.dir, 'local.db') };
    // Only set-up commands create a database (test/cli/connection/missing-database.test.ts).
    expect((await cli(['org', 'create', 'here', '--email', 'h@here.test'], localDb)).code).toBe(0);
    const local = await whoami({ ...localDb, TFE_TOKEN: aliceToken });
    // Local mode acts as the site-administrator user admin.
    expect(local).toMatchObject({ kind: 'user', username: 'admin', 'site-admin': true });
  });

  it('config set/get/list/unset keep per-profile defaults in a 0600 file', async () => {
    expect((await cli(['config', 'set', 'org', 'acme'])).code).toBe(0);
    expect((await cli(['config', 'set', 'server', server.url, '--profile', 'remote'])).code).toBe(0);
    expect(statSync(config).mode & 0o777).toBe(0o600);
    expect((await cli(['config', 'get', 'org'])).stdout.trim()).toBe('acme');
    expect((await cli(['config', 'get', 'server'])).code).toBe(3);
    expect((await cli(['config', 'set', 'output', 'xml'])).code).toBe(2);
    const list = JSON.parse((await cli(['config', 'list', '--json', '--profile', 'remote'])).stdout);
    expect(list.profiles).toEqual({ default: { org: 'acme' }, remote: { server: server.url } });
    expect(list.effective).toMatchObject({ profile: 'remote', server: server.url, mode: 'remote' });
    // TFE_ORGANIZATION is used before the profile's org; --org before both.
    const viaEnv = JSON.parse((await cli(['config', 'list', '--json'], { TFE_ORGANIZATION: 'other' })).stdout);
    expect(viaEnv.effective.organization).toBe('other');
    expect((await cli(['config', 'unset', 'org'])).code).toBe(0);
    expect((await cli(['config', 'get', 'org'])).code).toBe(3);
  });

  it('login checks the token, stores it for the host with mode 0600, and later commands use it', async () => {
    const bad = await cli(['login', server.url], {}, 'berth.not.a-token\n');
    expect(bad.code).toBe(6);
    const ok = await cli(['login', server.url, '--profile', 'alice'], {}, `${aliceToken}\n`);
    expect(ok.code).toBe(0);
    expect(ok.stdout).toContain('as alice');
    expect(statSync(config).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(config, 'utf8')).credentials[host].token).toBe(aliceToken);
    // No server or token in the environment: the profile's server and the stored login are used.
    rmTerraformCredentials();
    expect(await whoami({ BERTH_PROFILE: 'alice' })).toMatchObject({ username: 'alice' });
    const orgs = await cli(['org', 'list', '--json', '--profile', 'alice']);
    expect(JSON.parse(orgs.stdout).map((o: any) => o.id)).toEqual(['acme']);
  });

  function rmTerraformCredentials() {
    writeFileSync(join(home, '.terraform.d', 'credentials.tfrc.json'), JSON.stringify({ credentials: {} }));
  }
});
