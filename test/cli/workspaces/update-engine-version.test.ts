import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, runCli, tempDb } from '../../helpers/cli.js';
import { startServe, type ServeProcess } from '../../helpers/serve.js';

// Issue 46, item 4: `workspace update` had no --all-matching (the engine version of many workspaces
// was one command each), and the run error of a version serve cannot execute named the API's
// terraform-version, which the CLI calls --engine-version.
describe('workspace update --all-matching (local mode)', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);
  const json = jsonOf(cli);
  const versions = async () =>
    Object.fromEntries(
      (await json('workspace', 'list')).map((w: any) => [w.attributes.name, w.attributes['terraform-version']]),
    );

  beforeAll(async () => {
    expect((await cli('org', 'create', 'acme', '--email', 'a@acme.test')).code).toBe(0);
    for (const [name, version] of [
      ['app-1', '1.5.7'],
      ['app-2', '1.9.0'],
      ['db-1', '1.5.7'],
    ])
      expect((await cli('workspace', 'create', name, '--engine-version', version)).code).toBe(0);
  });
  afterAll(() => tmp.cleanup());

  it('previews each workspace with its current and new version; off a terminal it needs --yes', async () => {
    const refused = await cli(
      'workspace',
      'update',
      '--all-matching',
      '--wildcard',
      'app-*',
      '--engine-version',
      '1.9.8',
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('Updating (engine-version 1.9.8) 2 workspaces:');
    expect(refused.stderr).toMatch(/^WORKSPACE +ENGINE-VERSION$/m);
    expect(refused.stderr).toMatch(/^app-1 +1\.5\.7 -> 1\.9\.8$/m);
    expect(refused.stderr).toMatch(/^app-2 +1\.9\.0 -> 1\.9\.8$/m);
    expect(refused.stderr).toContain('refusing to act on 2 workspaces without --yes when not on a terminal');
    const dry = await cli(
      'workspace',
      'update',
      '--all-matching',
      '--wildcard',
      'app-*',
      '--engine-version',
      '1.9.8',
      '--dry-run',
    );
    expect(dry.code, dry.stderr).toBe(0);
    expect(dry.stdout).toContain('Dry run: 2 would change; nothing was changed.');
    expect(await versions()).toEqual({ 'app-1': '1.5.7', 'app-2': '1.9.0', 'db-1': '1.5.7' });
  });

  it('with --yes, sets the engine version of every match (and of nothing else), a result each', async () => {
    const done = await cli(
      'workspace',
      'update',
      '--all-matching',
      '--wildcard',
      'app-*',
      '--engine-version',
      '~> 1.9.0',
      '--yes',
      '--json',
    );
    expect(done.code, done.stderr).toBe(0);
    expect(JSON.parse(done.stdout).map((r: any) => [r.name, r.ok])).toEqual([
      ['app-1', true],
      ['app-2', true],
    ]);
    expect(await versions()).toEqual({ 'app-1': '~> 1.9.0', 'app-2': '~> 1.9.0', 'db-1': '1.5.7' });
    // Other settings go the same way; the table says how many succeeded.
    const table = await cli(
      'workspace',
      'update',
      '--all-matching',
      '--search',
      'db',
      '--description',
      'data',
      '--yes',
    );
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout).toMatch(/^db-1 +ws-\w{16} +ok/m);
    expect(table.stdout).toContain('1 succeeded, 0 failed.');
    expect((await json('workspace', 'show', 'db-1')).attributes.description).toBe('data');
  });

  it('a version the API refuses fails on each workspace with its words, and exits 5', async () => {
    const res = await cli(
      'workspace',
      'update',
      '--all-matching',
      '--wildcard',
      'app-*',
      '--engine-version',
      '0.0.1',
      '--yes',
    );
    expect(res.code).toBe(5);
    expect(res.stdout).toMatch(/^app-1 +ws-\w{16} +failed +.*Terraform version "0\.0\.1" is not a known version/m);
    expect(res.stdout).toContain('0 succeeded, 2 failed.');
  });

  it('refuses what would act on the wrong workspaces, or on one by accident (exit 2)', async () => {
    const cases: [string[], string][] = [
      [['--all-matching', '--engine-version', '1.9.8'], '--all-matching needs at least one filter'],
      [['app-1', '--all-matching', '--search', 'app', '--engine-version', '1.9.8'], 'not both'],
      [['--all-matching', '--search', 'app', '--name', 'x'], '--name changes one workspace at a time'],
      [['--all-matching', '--search', 'app', '--clear-tags'], '--clear-tags changes one workspace at a time'],
      [['--all-matching', '--search', 'app'], 'nothing to change'],
      [['app-1', '--search', 'app', '--engine-version', '1.9.8'], '--search is a filter of --all-matching'],
      [['--engine-version', '1.9.8'], 'say which workspace to update, or use --all-matching'],
    ];
    for (const [args, message] of cases) {
      const res = await cli('workspace', 'update', ...args);
      expect(res.code, args.join(' ')).toBe(2);
      expect(res.stderr, args.join(' ')).toContain(message);
    }
    expect(await versions()).toEqual({ 'app-1': '~> 1.9.0', 'app-2': '~> 1.9.0', 'db-1': '1.5.7' });
  });
});

describe('a run on a version serve cannot execute says how to fix it with the CLI', () => {
  const tmp = tempDb();
  let server: ServeProcess;

  beforeAll(async () => {
    // A terraform that only answers its version: the run ends before any plan.
    const bin = join(tmp.dir, 'bin');
    mkdirSync(bin);
    writeFileSync(
      join(bin, 'terraform'),
      `#!/bin/sh\necho '{"terraform_version":"1.99.0","platform":"linux_amd64"}'\n`,
    );
    chmodSync(join(bin, 'terraform'), 0o755);
    server = await startServe(tmp.db, [], { PATH: `${bin}:/usr/bin:/bin` });
  });
  afterAll(async () => {
    await server?.stop();
    tmp.cleanup();
  });

  it('names --engine-version and the version serve runs (and the API attribute for other clients)', async () => {
    const cli = (...args: string[]) =>
      runCli([...args, '--server', server.url, '--token', server.token!, '--org', 'acme']);
    expect((await cli('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
    expect((await cli('workspace', 'create', 'web', '--engine-version', '1.5.0')).code).toBe(0);
    const dir = join(tmp.dir, 'config');
    mkdirSync(dir);
    writeFileSync(join(dir, 'main.tf'), 'resource "terraform_data" "x" {}\n');
    const started = await cli('run', 'start', 'web', '--directory', dir, '--follow');
    expect(started.code, started.stderr).toBe(0);
    const last = started.stdout.trim().split('\n').at(-1)!;
    expect(last).toMatch(
      /^run-\w{16} errored: The workspace asks for Terraform 1\.5\.0, but this berth runs Terraform 1\.99\.0 \(\S+\); set the workspace's engine version to 1\.99\.0 or latest: berth workspace update acme\/web --engine-version 1\.99\.0 \(terraform-version in the API\)$/,
    );
    // Done as it says, the next run gets past the version.
    expect((await cli('workspace', 'update', 'acme/web', '--engine-version', '1.99.0')).code).toBe(0);
    const again = await cli('run', 'start', 'web', '--directory', dir, '--plan-only', '--follow');
    expect(again.stdout).not.toContain('The workspace asks for Terraform');
  });
});
