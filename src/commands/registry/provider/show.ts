import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { renderFields, renderTable } from '../../../cli/output/output.js';
import { newestFirst, parseProviderArg, platformNames, versionState } from '../../../cli/registry/provider-args.js';
import { RegistryProvidersClient } from '../../../client/registry-providers.js';

export default class RegistryProviderShow extends BerthCommand<typeof RegistryProviderShow> {
  static override summary =
    'Show a registry provider: its source address and its versions with their key and platforms.';
  static override description =
    'A version installs once its SHA256SUMS, their signature and the archive of each platform are uploaded (ok); terraform does not see the others.';
  static override examples = [
    '<%= config.bin %> registry provider show standin --org acme',
    '<%= config.bin %> registry provider show hashicorp/aws --org acme --json',
  ];
  static override args = {
    provider: Args.string({ description: 'NAME (a private provider) or NAMESPACE/NAME', required: true }),
  };

  async run(): Promise<void> {
    const ref = parseProviderArg(this.args.provider, this.requireOrg());
    const providers = new RegistryProvidersClient(await this.client());
    const provider = await providers.get(ref);
    const versions =
      ref.registryName === 'private'
        ? await Promise.all(
            newestFirst(await providers.versions(ref)).map(async (v) => ({
              ...v,
              platforms: await providers.platforms(ref, v.attributes.version),
            })),
          )
        : [];
    const server = this.flags.server;
    const host = server && /^https?:\/\//.test(server) ? new URL(server).host : 'HOST';
    const a = provider.attributes;
    this.print({ ...provider, versions }, () => {
      const fields = renderFields([
        ['ID', provider.id],
        ['Source', `${a['registry-name'] === 'private' ? host : 'registry.terraform.io'}/${a.namespace}/${a.name}`],
        ['Registry', a['registry-name']],
        ['Created', a['created-at']],
      ]);
      if (a['registry-name'] === 'public') return `${fields}\n\nA public registry's provider: its versions are there.`;
      const table =
        versions.length === 0
          ? 'No versions: publish one with `berth registry provider publish DIR`.'
          : renderTable(versions, [
              { header: 'VERSION', value: (v) => v.attributes.version },
              { header: 'STATUS', value: (v) => versionState(v, v.platforms) },
              { header: 'KEY ID', value: (v) => v.attributes['key-id'] },
              { header: 'PROTOCOLS', value: (v) => v.attributes.protocols.join(', ') },
              { header: 'PLATFORMS', value: (v) => platformNames(v.platforms).join(', ') || '-' },
            ]);
      return `${fields}\n\n${table}`;
    });
  }
}
