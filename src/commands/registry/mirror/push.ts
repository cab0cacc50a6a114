import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { mirrorFolderArchives, zipHash } from '../../../cli/registry/provider-mirror-folder.js';
import { ProviderMirrorClient } from '../../../client/provider-mirror.js';

export default class RegistryMirrorPush extends BerthCommand<typeof RegistryMirrorPush> {
  static override summary = "Push what `terraform providers mirror DIR` wrote into an organization's provider mirror.";
  static override description =
    "Reads DIR/HOSTNAME/NAMESPACE/TYPE/VERSION.json and the archives beside them and uploads each archive the mirror does not hold yet (same zh: hash: skipped), streamed from disk, with its h1: hashes. Terraform then installs them from https://HOST/api/registry/mirror/ORG/ (a network_mirror), and so do berth's runs. Needs owners or a team with manage-providers.";
  static override examples = [
    'terraform providers mirror ./mirror && <%= config.bin %> registry mirror push ./mirror --org acme',
  ];
  static override args = {
    dir: Args.string({ description: 'the folder terraform providers mirror wrote', required: true }),
  };

  async run(): Promise<void> {
    const org = this.requireOrg();
    const mirror = new ProviderMirrorClient(await this.client());
    const archives = await mirrorFolderArchives(this.args.dir);
    const results: {
      provider: string;
      version: string;
      platform: string;
      action: 'pushed' | 'skipped';
      size: number;
    }[] = [];
    const known = new Map<string, Map<string, string[]>>();
    for (const a of archives) {
      const key = `${a.hostname}/${a.namespace}/${a.type}/${a.version}`;
      let held = known.get(key);
      if (!held) known.set(key, (held = await mirror.versionHashes(org, a.hostname, a.namespace, a.type, a.version)));
      const zh = await zipHash(a.file);
      const provider = `${a.hostname}/${a.namespace}/${a.type}`;
      if (held.get(a.platform)?.includes(zh)) {
        results.push({ provider, version: a.version, platform: a.platform, action: 'skipped', size: a.size });
        continue;
      }
      await mirror.push(org, { ...a, hashes: [...a.hashes, zh] });
      results.push({ provider, version: a.version, platform: a.platform, action: 'pushed', size: a.size });
    }
    this.print(results, () => {
      const pushed = results.filter((r) => r.action === 'pushed').length;
      const lines = results.map(
        (r) => `${r.action === 'pushed' ? 'pushed ' : 'skipped'} ${r.provider} ${r.version} ${r.platform}`,
      );
      return [...lines, `${pushed} pushed, ${results.length - pushed} already in the mirror of ${org}.`].join('\n');
    });
  }
}
