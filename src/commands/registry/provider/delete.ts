import { Args, Flags } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { confirmDestructive } from '../../../cli/common/prompts.js';
import { parseProviderArg } from '../../../cli/registry/provider-args.js';
import { RegistryProvidersClient } from '../../../client/registry-providers.js';

export default class RegistryProviderDelete extends BerthCommand<typeof RegistryProviderDelete> {
  static override summary = 'Delete a registry provider (with its versions and archives) or one version.';
  static override description =
    'Configurations that need what is deleted no longer init. Asks for confirmation on a terminal; elsewhere give --yes.';
  static override examples = [
    '<%= config.bin %> registry provider delete standin --version 1.0.0 --org acme --yes',
    '<%= config.bin %> registry provider delete standin --org acme --yes',
  ];
  static override args = {
    provider: Args.string({ description: 'NAME (a private provider) or NAMESPACE/NAME', required: true }),
  };
  static override flags = {
    version: Flags.string({ description: 'delete only this version (a private provider)' }),
    yes: Flags.boolean({ char: 'y', description: 'do not ask for confirmation', default: false }),
  };

  async run(): Promise<void> {
    const ref = parseProviderArg(this.args.provider, this.requireOrg());
    const providers = new RegistryProvidersClient(await this.client());
    const version = this.flags.version;
    // What is deleted must exist before anyone is asked (and --yes deletes nothing unknown).
    if (version) await providers.version(ref, version);
    else await providers.get(ref);
    const what = version
      ? `version ${version} of provider ${this.args.provider}`
      : `provider ${this.args.provider} with its versions`;
    await confirmDestructive(`delete ${what}`, this.flags);
    if (version) await providers.deleteVersion(ref, version);
    else await providers.delete(ref);
    this.print(
      { provider: `${ref.namespace}/${ref.name}`, version: version ?? null, deleted: true },
      () => `Deleted ${what}.`,
    );
  }
}
