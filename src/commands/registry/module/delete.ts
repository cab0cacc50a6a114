import { Args, Flags } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { confirmDestructive } from '../../../cli/common/prompts.js';
import { parseModuleArg } from '../../../cli/registry/module-args.js';
import { RegistryModulesClient } from '../../../client/registry-modules.js';

export default class RegistryModuleDelete extends BerthCommand<typeof RegistryModuleDelete> {
  static override aliases = ['module:delete'];
  static override summary = 'Delete a registry module (every provider of NAME), one provider, or one version.';
  static override description =
    'Configurations that use what is deleted no longer init. Asks for confirmation on a terminal; elsewhere give --yes.';
  static override examples = [
    '<%= config.bin %> registry module delete vpc/aws --version 1.0.0 --org acme --yes',
    '<%= config.bin %> registry module delete vpc/aws --org acme --yes',
    '<%= config.bin %> registry module delete vpc --org acme --yes',
  ];
  static override args = {
    module: Args.string({ description: 'NAME/PROVIDER, or NAME for every provider', required: true }),
  };
  static override flags = {
    version: Flags.string({ description: 'delete only this version (needs NAME/PROVIDER)' }),
    yes: Flags.boolean({ char: 'y', description: 'do not ask for confirmation', default: false }),
  };

  async run(): Promise<void> {
    const { name, provider } = parseModuleArg(this.args.module, { providerOptional: !this.flags.version });
    const what = this.flags.version ? `version ${this.flags.version} of ${name}/${provider}` : this.args.module;
    await confirmDestructive(`delete registry module ${what}`, this.flags);
    await new RegistryModulesClient(await this.client()).delete(this.requireOrg(), name, provider, this.flags.version);
    this.print(
      { module: this.args.module, version: this.flags.version ?? null, deleted: true },
      () => `Deleted registry module ${what}.`,
    );
  }
}
