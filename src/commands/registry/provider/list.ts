import { Flags } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { limitFlag } from '../../../cli/flags/paging.js';
import { providerTable } from '../../../cli/registry/provider-args.js';
import type { Resource } from '../../../client/jsonapi.js';
import { RegistryProvidersClient, type ProviderVersionAttributes } from '../../../client/registry-providers.js';

export default class RegistryProviderList extends BerthCommand<typeof RegistryProviderList> {
  static override summary = "List the providers of the organization's registry, with their newest version.";
  static override examples = [
    '<%= config.bin %> registry provider list --org acme',
    '<%= config.bin %> registry provider list --registry private --json',
  ];
  static override flags = {
    ...limitFlag,
    registry: Flags.string({ description: 'only providers of this registry', options: ['private', 'public'] }),
    search: Flags.string({ description: 'only providers whose name contains this' }),
  };

  async run(): Promise<void> {
    const { data, included } = await new RegistryProvidersClient(await this.client()).list(this.requireOrg(), {
      limit: this.flags.limit,
      registryName: this.flags.registry,
      q: this.flags.search,
    });
    const versions = new Map(
      included
        .filter((r) => r.type === 'registry-provider-versions')
        .map((r) => [r.id, r as Resource<ProviderVersionAttributes>]),
    );
    const versionsOf = (p: Resource) => {
      const rel = p.relationships?.['registry-provider-versions']?.data;
      return (Array.isArray(rel) ? rel : []).flatMap((r) => versions.get(r.id) ?? []);
    };
    this.print(data, () => (data.length === 0 ? 'No registry providers.' : providerTable(data, versionsOf)));
  }
}
