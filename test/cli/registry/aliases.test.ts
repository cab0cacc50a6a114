import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, runCli, tempDb } from '../../helpers/cli.js';
import { throwawayKey } from '../../helpers/provider-package.js';
import { writeRelease } from '../../helpers/provider-release.js';

/**
 * The short names issue 44 gives the registry's commands: `berth module publish|list|show|delete`,
 * `berth provider publish` and `berth gpg-key add|list|delete` run the `berth registry ...`
 * commands (their oclif `aliases`), with help, completion and "did you mean" as for any command.
 */
describe('registry aliases', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);
  const json = jsonOf(cli);
  const key = throwawayKey('Acme Releases <releases@acme.test>');

  beforeAll(async () => {
    expect((await cli('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
  });
  afterAll(() => tmp.cleanup());

  it('module publish|list|show|delete are registry module ...', async () => {
    const dir = join(tmp.dir, 'vpc');
    mkdirSync(dir);
    writeFileSync(join(dir, 'main.tf'), 'output "id" { value = "vpc-1" }\n');
    const published = await cli('module', 'publish', 'vpc/aws', '1.0.0', '--directory', dir);
    expect(published.code, published.stderr).toBe(0);
    expect(published.stdout).toContain('Published acme/vpc/aws 1.0.0');
    expect((await json('module', 'list')).map((m: any) => m.attributes.name)).toEqual(['vpc']);
    expect((await json('module', 'ls')).map((m: any) => m.attributes.name)).toEqual(['vpc']);
    expect((await json('module', 'show', 'vpc/aws')).attributes['version-statuses']).toEqual([
      { version: '1.0.0', status: 'ok' },
    ]);
    const refused = await cli('module', 'delete', 'vpc/aws');
    expect(refused.code).toBe(2);
    expect((await cli('module', 'delete', 'vpc/aws', '--yes')).code).toBe(0);
    expect(await json('registry', 'module', 'list')).toEqual([]);
  });

  it('gpg-key add|list|delete and provider publish are registry gpg-key ... and registry provider publish', async () => {
    writeFileSync(join(tmp.dir, 'key.asc'), key.asciiArmor);
    expect((await cli('gpg-key', 'add', join(tmp.dir, 'key.asc'))).code).toBe(0);
    expect((await json('gpg-key', 'list')).map((k: any) => k.attributes['key-id'])).toEqual([key.keyId]);
    const dist = writeRelease(join(tmp.dir, 'dist'), key, 'standin', '1.0.0', ['linux_amd64']);
    const published = await cli('provider', 'publish', dist.dir);
    expect(published.code, published.stderr).toBe(0);
    expect(published.stdout).toContain(`Published acme/standin 1.0.0 (key ${key.keyId}`);
    expect((await json('registry', 'provider', 'list')).map((p: any) => p.attributes.name)).toEqual(['standin']);
    expect((await cli('gpg-key', 'delete', key.keyId, '--yes')).code).toBe(0);
    expect(await json('registry', 'gpg-key', 'list')).toEqual([]);
  });

  it('help, usage errors, completion and "did you mean" know the short names', async () => {
    const help = await cli('help', 'module');
    expect(help.stdout).toContain('$ berth module COMMAND');
    expect(help.stdout).toMatch(/module publish\s+Publish a version of a registry module/);
    const command = await cli('registry', 'gpg-key', 'add', '--help');
    expect(command.stdout).toContain('$ berth registry gpg-key add FILE');
    expect(command.stdout).toMatch(/ALIASES\n\s+\$ berth gpg-key add\n/);
    expect((await cli('gpg-key', 'add', '--help')).stdout).toContain('$ berth gpg-key add FILE');
    const top = await cli('help');
    expect(top.stdout).toMatch(/gpg-key\s+Short for `berth registry gpg-key`/);
    const typo = await cli('module', 'pubilsh');
    expect(typo.code).toBe(2);
    expect(typo.stderr).toContain('Did you mean "berth module publish"?');
    const missing = await cli('provider', 'publish');
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('missing argument DIR');
    const words = await cli('completion', 'candidates', '--', 'gpg');
    expect(words.stdout.trim().split('\n')).toEqual(['gpg-key']);
    const after = await cli('completion', 'candidates', '--', 'module', '');
    expect(after.stdout.trim().split('\n')).toEqual(['delete', 'list', 'publish', 'show']);
  });
});
