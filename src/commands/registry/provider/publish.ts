import { Args, Flags } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { usageError } from '../../../cli/common/prompts.js';
import { platformNames } from '../../../cli/registry/provider-args.js';
import { publishRelease } from '../../../cli/registry/provider-publish.js';
import { readProviderRelease } from '../../../cli/registry/provider-release-folder.js';

export default class RegistryProviderPublish extends BerthCommand<typeof RegistryProviderPublish> {
  static override aliases = ['provider:publish'];
  static override summary =
    "Publish a provider release folder (goreleaser's, HashiCorp's) into the organization's private registry.";
  static override description = `DIR holds terraform-provider-NAME_VERSION_OS_ARCH.zip archives, terraform-provider-NAME_VERSION_SHA256SUMS and its detached signature (…_SHA256SUMS.sig), and maybe …_manifest.json (its protocol versions; else ["5.0"]). Every archive must be listed in SHA256SUMS with its own SHA-256, and the key that signed it must be registered first (berth registry gpg-key add). Creates the provider when missing, then the version, uploads SHA256SUMS and its signature, then each platform and its archive. A version published in full is refused; one left half-published is completed. Terraform then installs it as source = "HOST/ORG/NAME". Needs owners or a team with manage-providers.`;
  static override examples = [
    '<%= config.bin %> registry gpg-key add signing-key.asc --org acme',
    '<%= config.bin %> registry provider publish ./dist --org acme',
    '<%= config.bin %> provider publish ./dist --org acme --key-id 34365D9472D7468F --json',
  ];
  static override args = {
    dir: Args.string({ description: 'the folder of the release (goreleaser writes dist/)', required: true }),
  };
  static override flags = {
    namespace: Flags.string({
      description: "the provider's namespace: a private provider's is the organization's name (the default)",
    }),
    'key-id': Flags.string({
      description:
        'the registered GPG key to name (default: the key that signed SHA256SUMS, or the key whose subkey did)',
    }),
  };

  async run(): Promise<void> {
    const org = this.requireOrg();
    const keyId = this.flags['key-id'];
    if (keyId !== undefined && !/^[0-9A-Fa-f]{16}$/.test(keyId))
      throw usageError(`--key-id ${keyId}: give the 16 hex digits of a key ID, e.g. 34365D9472D7468F`);
    const release = await readProviderRelease(this.args.dir);
    const namespace = this.flags.namespace ?? org;
    const ref = { org, registryName: 'private' as const, namespace, name: release.name };
    const out = await publishRelease(await this.client(), ref, release, { keyId });
    this.print(out, () => {
      const lines = [
        out.providerCreated ? `Created provider ${namespace}/${release.name}.` : null,
        ...out.uploaded.map((f) => `uploaded ${f}`),
        `Published ${namespace}/${release.name} ${release.version} (key ${out.keyId}, protocols ${out.version.attributes.protocols.join(', ')}${release.protocolsFrom === 'default' ? ': no manifest, the default' : ''}) for ${platformNames(out.platforms).join(', ')}.`,
      ];
      return lines.filter((l) => l !== null).join('\n');
    });
  }
}
