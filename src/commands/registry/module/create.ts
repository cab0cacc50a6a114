import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { parseModuleArg } from '../../../cli/registry/module-args.js';
import { RegistryModulesClient } from '../../../client/registry-modules.js';

export default class RegistryModuleCreate extends BerthCommand<typeof RegistryModuleCreate> {
  static override summary = "Create a module in the organization's private registry (then publish its versions).";
  static override description =
    'NAME is letters, digits, dashes and underscores; PROVIDER lowercase letters and digits. Configurations use it as source = "HOST/ORG/NAME/PROVIDER". `berth registry module publish` creates the module too when it is missing.';
  static override examples = ['<%= config.bin %> registry module create vpc/aws --org acme'];
  static override args = { module: Args.string({ description: 'NAME/PROVIDER, e.g. vpc/aws', required: true }) };

  async run(): Promise<void> {
    const { name, provider } = parseModuleArg(this.args.module);
    const mod = await new RegistryModulesClient(await this.client()).create(this.requireOrg(), name, provider!);
    this.print(mod, () => `Created registry module ${mod.attributes.namespace}/${name}/${provider} (${mod.id}).`);
  }
}
