import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { jsonOf, runCli, tempDb } from '../../helpers/cli.js';
import { zipOf } from '../../helpers/provider-package.js';

/**
 * `berth registry mirror list|delete` (issue 44) in local mode, against the built CLI: what
 * `registry mirror push` put into the organization's mirror, by provider and version.
 */
describe('registry mirror list and delete', () => {
  const tmp = tempDb();
  const env = { BERTH_DB: tmp.db, BERTH_ORG: 'acme' };
  const cli = (...args: string[]) => runCli(args, env);
  const json = jsonOf(cli);

  /** What `terraform providers mirror DIR` writes: HOSTNAME/NAMESPACE/TYPE/VERSION.json and the archives beside it. */
  function mirrorFolder(dir: string, packages: [string, string, string[]][]) {
    for (const [provider, version, platforms] of packages) {
      const at = join(dir, ...provider.split('/'));
      mkdirSync(at, { recursive: true });
      const type = provider.split('/')[2];
      const archives: Record<string, { url: string; hashes: string[] }> = {};
      for (const platform of platforms) {
        const url = `terraform-provider-${type}_${version}_${platform}.zip`;
        writeFileSync(join(at, url), zipOf({ [`terraform-provider-${type}_v${version}`]: Buffer.from(platform) }));
        archives[platform] = { url, hashes: [`h1:${'C'.repeat(43)}=`] };
      }
      writeFileSync(join(at, `${version}.json`), JSON.stringify({ archives }));
    }
  }

  beforeAll(async () => {
    expect((await cli('org', 'create', 'acme', '--email', 'ops@acme.test')).code).toBe(0);
    const dir = join(tmp.dir, 'mirror');
    mirrorFolder(dir, [
      ['registry.terraform.io/hashicorp/null', '3.2.1', ['linux_amd64', 'darwin_arm64']],
      ['registry.terraform.io/hashicorp/null', '3.1.0', ['linux_amd64']],
      ['registry.terraform.io/hashicorp/random', '3.6.0', ['linux_amd64']],
    ]);
    const pushed = await cli('registry', 'mirror', 'push', dir);
    expect(pushed.code, pushed.stderr).toBe(0);
  });
  afterAll(() => tmp.cleanup());

  it('lists each provider and version with its platforms; --json gives a mirror-packages resource per archive', async () => {
    const list = await cli('registry', 'mirror', 'list');
    expect(list.code, list.stderr).toBe(0);
    const rows = list.stdout.trim().split('\n');
    expect(rows[0]).toMatch(/^PROVIDER\s+VERSION\s+PLATFORMS\s+SIZE$/);
    expect(rows.slice(1).map((r) => r.replace(/\s+\d+(\.\d)? (B|KiB)$/, '').split(/\s{2,}/))).toEqual([
      ['registry.terraform.io/hashicorp/null', '3.2.1', 'darwin_arm64, linux_amd64'],
      ['registry.terraform.io/hashicorp/null', '3.1.0', 'linux_amd64'],
      ['registry.terraform.io/hashicorp/random', '3.6.0', 'linux_amd64'],
    ]);
    const packages = await json('registry', 'mirror', 'list', '--provider', 'registry.terraform.io/hashicorp/null');
    expect(packages).toHaveLength(3);
    expect(packages[0]).toMatchObject({
      type: 'mirror-packages',
      attributes: { 'provider-type': 'null', hashes: [`h1:${'C'.repeat(43)}=`, expect.stringMatching(/^zh:/)] },
    });
    expect(await json('registry', 'mirror', 'list', '--version', '3.6.0')).toHaveLength(1);
    const bad = await cli('registry', 'mirror', 'list', '--provider', 'hashicorp/null');
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('give the provider as HOSTNAME/NAMESPACE/TYPE');
  });

  it('deletes one version (every platform), then a whole provider; only with --yes off a terminal', async () => {
    const refused = await cli(
      'registry',
      'mirror',
      'delete',
      'registry.terraform.io/hashicorp/null',
      '--version',
      '3.2.1',
    );
    expect(refused.code).toBe(2);
    expect(refused.stderr).toContain(
      'refusing to delete registry.terraform.io/hashicorp/null 3.2.1 from the mirror of acme (2 archives of 1 version: 3.2.1) without --yes',
    );
    const one = await cli(
      'registry',
      'mirror',
      'delete',
      'registry.terraform.io/hashicorp/null',
      '--version',
      '3.2.1',
      '--yes',
    );
    expect(one.code, one.stderr).toBe(0);
    expect(one.stdout.trim().split('\n')).toEqual([
      'deleted registry.terraform.io/hashicorp/null 3.2.1 linux_amd64',
      'deleted registry.terraform.io/hashicorp/null 3.2.1 darwin_arm64',
      'Deleted 2 archives from the mirror of acme.',
    ]);
    const all = await json('registry', 'mirror', 'delete', 'Registry.Terraform.io/hashicorp/null', '--yes');
    expect(all).toEqual([
      {
        provider: 'registry.terraform.io/hashicorp/null',
        version: '3.1.0',
        platform: 'linux_amd64',
        filename: 'terraform-provider-null_3.1.0_linux_amd64.zip',
      },
    ]);
    expect((await json('registry', 'mirror', 'list')).map((p: any) => p.attributes['provider-type'])).toEqual([
      'random',
    ]);
    const none = await cli('registry', 'mirror', 'delete', 'registry.terraform.io/hashicorp/null', '--yes');
    expect(none.code).toBe(3);
    expect(none.stderr).toContain('the mirror of acme holds no registry.terraform.io/hashicorp/null');
  });
});
