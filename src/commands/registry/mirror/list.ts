import { Flags } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { limitFlag } from '../../../cli/flags/paging.js';
import { mirrorTable, parseMirrorProvider, versionRows } from '../../../cli/registry/mirror-packages.js';
import { ProviderMirrorClient } from '../../../client/provider-mirror.js';

export default class RegistryMirrorList extends BerthCommand<typeof RegistryMirrorList> {
  static override summary =
    "List what the organization's provider mirror holds: each provider, version and its platforms.";
  static override description =
    "The packages pushed with `berth registry mirror push`. The mirror also serves the organization's own private providers (`berth registry provider list`). --json gives one mirror-packages resource per archive, with its hashes.";
  static override examples = [
    '<%= config.bin %> registry mirror list --org acme',
    '<%= config.bin %> registry mirror list --provider registry.terraform.io/hashicorp/null --json',
  ];
  static override flags = {
    ...limitFlag,
    provider: Flags.string({ description: 'only this provider, HOSTNAME/NAMESPACE/TYPE' }),
    version: Flags.string({ description: 'only this version' }),
  };

  async run(): Promise<void> {
    const org = this.requireOrg();
    const filter = this.flags.provider ? parseMirrorProvider(this.flags.provider) : {};
    const packages = await new ProviderMirrorClient(await this.client()).packages(
      org,
      { ...filter, version: this.flags.version },
      { limit: this.flags.limit },
    );
    this.print(packages, () =>
      packages.length === 0
        ? `The mirror of ${org} holds no pushed package${this.flags.provider || this.flags.version ? ' that matches' : ''}: push some with \`berth registry mirror push DIR\`.`
        : mirrorTable(versionRows(packages)),
    );
  }
}
