import { Flags } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { limitFlag } from '../../../cli/flags/paging.js';
import { moduleTable } from '../../../cli/registry/module-args.js';
import { RegistryModulesClient } from '../../../client/registry-modules.js';

export default class RegistryModuleList extends BerthCommand<typeof RegistryModuleList> {
  static override aliases = ['module:list'];
  static override summary = "List the modules of the organization's registry, with their newest version.";
  static override examples = [
    '<%= config.bin %> registry module list --org acme',
    '<%= config.bin %> registry module list --provider aws --json',
  ];
  static override flags = {
    ...limitFlag,
    provider: Flags.string({ description: 'only modules for this provider' }),
    search: Flags.string({ description: 'only modules whose name, namespace or provider contains this' }),
  };

  async run(): Promise<void> {
    const mods = await new RegistryModulesClient(await this.client()).list(this.requireOrg(), {
      limit: this.flags.limit,
      provider: this.flags.provider,
      q: this.flags.search,
    });
    this.print(mods, () => (mods.length === 0 ? 'No registry modules.' : moduleTable(mods)));
  }
}
