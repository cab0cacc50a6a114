import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, runCli, tempDb } from '../../helpers/cli.js';
import { throwawayKey } from '../../helpers/provider-package.js';
import { withSubkey, writeRelease } from '../../helpers/provider-release.js';

/**
 * `berth registry provider publish|list|show|delete` (issue 44) in local mode, against the built
 * CLI: a release folder as goreleaser writes it, refused before anything is written when it is
 * not what SHA256SUMS says, when its key is not registered, or when the version is complete.
 */
describe('registry provider', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);
  const json = jsonOf(cli);
  const key = throwawayKey('Acme Releases <releases@acme.test>');
  const stranger = throwawayKey('Stranger <s@elsewhere.test>');
  const folder = (name: string) => join(tmp.dir, name);
  const providers = async () => (await json('registry', 'provider', 'list')).map((p: any) => p.attributes.name);

  beforeAll(async () => {
    expect((await cli('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
    writeFileSync(join(tmp.dir, 'key.asc'), key.asciiArmor);
    expect((await cli('registry', 'gpg-key', 'add', join(tmp.dir, 'key.asc'))).code).toBe(0);
  });
  afterAll(() => tmp.cleanup());

  it('refuses a release signed by a key the organization does not have: exit 5, nothing created', async () => {
    const dist = writeRelease(folder('unknown-key'), stranger, 'standin', '1.0.0', ['linux_amd64']);
    const r = await cli('registry', 'provider', 'publish', dist.dir);
    expect(r.code).toBe(5);
    expect(r.stderr).toContain(
      `GPG key ${stranger.keyId} (that signed terraform-provider-standin_1.0.0_SHA256SUMS.sig) is not registered in acme`,
    );
    expect(r.stderr).toContain('berth registry gpg-key add');
    const given = await cli('registry', 'provider', 'publish', dist.dir, '--key-id', '0123456789ABCDEF');
    expect(given.code).toBe(5);
    expect(given.stderr).toContain('GPG key 0123456789ABCDEF (given with --key-id) is not registered in acme');
    expect(await providers()).toEqual([]);
  });

  it('refuses an archive SHA256SUMS does not list, or lists with another hash, and a folder that is no release', async () => {
    const dist = writeRelease(folder('unlisted'), key, 'standin', '1.0.0', ['linux_amd64']);
    writeFileSync(join(dist.dir, 'terraform-provider-standin_1.0.0_windows_amd64.zip'), 'PK');
    const unlisted = await cli('registry', 'provider', 'publish', dist.dir);
    expect(unlisted.code).toBe(2);
    expect(unlisted.stderr).toContain(
      'terraform-provider-standin_1.0.0_windows_amd64.zip is not listed in terraform-provider-standin_1.0.0_SHA256SUMS',
    );
    rmSync(join(dist.dir, 'terraform-provider-standin_1.0.0_windows_amd64.zip'));
    writeFileSync(join(dist.dir, 'terraform-provider-standin_1.0.0_linux_amd64.zip'), 'PK changed');
    const changed = await cli('registry', 'provider', 'publish', dist.dir);
    expect(changed.code).toBe(2);
    expect(changed.stderr).toMatch(/linux_amd64\.zip has SHA-256 [0-9a-f]{64}, but .*_SHA256SUMS lists/);
    const empty = await cli('registry', 'provider', 'publish', tmp.dir);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('holds no terraform-provider-NAME_VERSION_SHA256SUMS file');
    rmSync(join(dist.dir, 'terraform-provider-standin_1.0.0_SHA256SUMS.sig'));
    writeRelease(folder('nosig'), key, 'standin', '1.0.0', ['linux_amd64']);
    rmSync(join(folder('nosig'), 'terraform-provider-standin_1.0.0_SHA256SUMS.sig'));
    const noSig = await cli('registry', 'provider', 'publish', folder('nosig'));
    expect(noSig.code).toBe(2);
    expect(noSig.stderr).toContain('holds no terraform-provider-standin_1.0.0_SHA256SUMS.sig');
    expect(await providers()).toEqual([]);
  });

  it('publishes a release: the provider, the version (key, protocols of the manifest), SHA256SUMS, signature, each platform', async () => {
    const dist = writeRelease(folder('v1'), key, 'standin', '1.0.0', ['linux_amd64', 'darwin_arm64'], {
      protocols: ['6.0'],
    });
    const r = await cli('registry', 'provider', 'publish', dist.dir);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout.trim().split('\n')).toEqual([
      'Created provider acme/standin.',
      'uploaded terraform-provider-standin_1.0.0_SHA256SUMS',
      'uploaded terraform-provider-standin_1.0.0_SHA256SUMS.sig',
      'uploaded terraform-provider-standin_1.0.0_darwin_arm64.zip',
      'uploaded terraform-provider-standin_1.0.0_linux_amd64.zip',
      `Published acme/standin 1.0.0 (key ${key.keyId}, protocols 6.0) for darwin_arm64, linux_amd64.`,
    ]);
    const shown = await json('registry', 'provider', 'show', 'standin');
    expect(shown.attributes).toMatchObject({ name: 'standin', namespace: 'acme', 'registry-name': 'private' });
    expect(shown.versions).toHaveLength(1);
    expect(shown.versions[0].attributes).toMatchObject({
      version: '1.0.0',
      'key-id': key.keyId,
      protocols: ['6.0'],
      'shasums-uploaded': true,
      'shasums-sig-uploaded': true,
    });
    const platforms = shown.versions[0].platforms.map((p: any) => p.attributes);
    expect(platforms.map((p: any) => `${p.os}_${p.arch}`).sort()).toEqual(['darwin_arm64', 'linux_amd64']);
    for (const p of platforms) {
      expect(p['provider-binary-uploaded']).toBe(true);
      expect(p.shasum).toBe(dist.archives.find((a) => a.filename === p.filename)!.shasum);
    }
  });

  it('refuses a version published in full (exit 4), and one whose files differ from the release', async () => {
    const again = await cli('registry', 'provider', 'publish', folder('v1'));
    expect(again.code).toBe(4);
    expect(again.stderr).toContain('standin 1.0.0 is already published in full: publish another version');
    // Another build of the same version: its archives' hashes differ from those published.
    const rebuilt = writeRelease(folder('v1-rebuilt'), key, 'standin', '1.0.0', ['linux_amd64', 'darwin_arm64'], {
      protocols: ['6.0'],
      build: 'rebuilt',
    });
    const other = await cli('registry', 'provider', 'publish', rebuilt.dir);
    expect(other.code).toBe(4);
    expect(other.stderr).toContain('standin 1.0.0 already has');
    expect(other.stderr).toContain('berth registry provider delete standin --version 1.0.0');
  });

  it('completes a version published in part: only what is missing is sent; protocols default to 5.0 without a manifest', async () => {
    const dist = writeRelease(folder('v2'), key, 'standin', '2.0.0', ['linux_amd64', 'linux_arm64']);
    const arm = join(dist.dir, 'terraform-provider-standin_2.0.0_linux_arm64.zip');
    rmSync(arm);
    const first = await json('registry', 'provider', 'publish', dist.dir);
    expect(first.providerCreated).toBe(false);
    expect(first.versionCreated).toBe(true);
    expect(first.version.attributes.protocols).toEqual(['5.0']);
    expect(first.uploaded).toHaveLength(3);
    writeFileSync(arm, dist.archives[1].zip);
    const second = await json('registry', 'provider', 'publish', dist.dir);
    expect(second.versionCreated).toBe(false);
    expect(second.uploaded).toEqual(['terraform-provider-standin_2.0.0_linux_arm64.zip']);
    expect(second.platforms.map((p: any) => p.attributes['provider-binary-uploaded'])).toEqual([true, true]);
  });

  it('takes an armored signature, and a signature by a subkey of a registered key (naming the primary key)', async () => {
    const primary = throwawayKey('Primary <p@acme.test>');
    const signing = throwawayKey('signing subkey');
    writeFileSync(join(tmp.dir, 'primary.asc'), withSubkey(primary, signing));
    expect((await cli('registry', 'gpg-key', 'add', join(tmp.dir, 'primary.asc'))).code).toBe(0);
    const dist = writeRelease(folder('sub'), signing, 'subsigned', '0.1.0', ['linux_amd64'], { armored: true });
    const out = await json('registry', 'provider', 'publish', dist.dir);
    expect(out.keyId).toBe(primary.keyId);
    expect(out.version.attributes['key-id']).toBe(primary.keyId);
    expect(out.version.attributes['shasums-sig-uploaded']).toBe(true);
  });

  it('lists providers with their newest version, shows one with its versions and platforms', async () => {
    const list = await cli('registry', 'provider', 'list');
    expect(list.code, list.stderr).toBe(0);
    const rows = list.stdout.trim().split('\n');
    expect(rows[0]).toMatch(/^NAME\s+NAMESPACE\s+REGISTRY\s+LATEST$/);
    expect(rows[1]).toMatch(/^standin\s+acme\s+private\s+2\.0\.0 \(\+1\)$/);
    expect(rows[2]).toMatch(/^subsigned\s+acme\s+private\s+0\.1\.0$/);
    const show = await cli('registry', 'provider', 'show', 'standin');
    expect(show.code, show.stderr).toBe(0);
    expect(show.stdout).toMatch(/Source\s+HOST\/acme\/standin/);
    expect(show.stdout).toMatch(/2\.0\.0\s+ok\s+[0-9A-F]{16}\s+5\.0\s+linux_amd64, linux_arm64/);
    expect(show.stdout).toMatch(/1\.0\.0\s+ok\s+[0-9A-F]{16}\s+6\.0\s+darwin_arm64, linux_amd64/);
    const unknown = await cli('registry', 'provider', 'show', 'nothing');
    expect(unknown.code).toBe(3);
  });

  it('gpg-key delete says how many provider versions name the key', async () => {
    const refused = await cli('registry', 'gpg-key', 'delete', key.keyId);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      `refusing to delete GPG key ${key.keyId} of acme (2 provider versions name it and will no longer install) without --yes`,
    );
  });

  it('deletes a version, then the provider: only with --yes off a terminal', async () => {
    const refused = await cli('registry', 'provider', 'delete', 'standin', '--version', '1.0.0');
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain('refusing to delete version 1.0.0 of provider standin without --yes');
    const version = await json('registry', 'provider', 'delete', 'standin', '--version', '1.0.0', '--yes');
    expect(version).toEqual({ provider: 'acme/standin', version: '1.0.0', deleted: true });
    expect(
      (await json('registry', 'provider', 'show', 'standin')).versions.map((v: any) => v.attributes.version),
    ).toEqual(['2.0.0']);
    const missing = await cli('registry', 'provider', 'delete', 'standin', '--version', '1.0.0', '--yes');
    expect(missing.code).toBe(3);
    const all = await cli('registry', 'provider', 'delete', 'standin', '--yes');
    expect(all.code, all.stderr).toBe(0);
    expect(all.stdout.trim()).toBe('Deleted provider standin with its versions.');
    expect(await providers()).toEqual(['subsigned']);
  });
});
