import { BerthCommand } from '../../../cli/base-command.js';
import { limitFlag } from '../../../cli/flags/paging.js';
import { renderTable } from '../../../cli/output/output.js';
import { GpgKeysClient } from '../../../client/gpg-keys.js';
import { readArmoredKeyDetails } from '../../../domain/registry/gpg-armor.js';

export default class RegistryGpgKeyList extends BerthCommand<typeof RegistryGpgKeyList> {
  static override aliases = ['gpg-key:list'];
  static override summary = "List the GPG keys of the organization's registry, oldest first.";
  static override examples = [
    '<%= config.bin %> registry gpg-key list --org acme',
    '<%= config.bin %> gpg-key list --jq ".[].attributes[\\"key-id\\"]"',
  ];
  static override flags = { ...limitFlag };

  async run(): Promise<void> {
    const keys = await new GpgKeysClient(await this.client()).list(this.requireOrg(), { limit: this.flags.limit });
    const userOf = (armor: string) => {
      const d = readArmoredKeyDetails(armor);
      return typeof d === 'string' ? '-' : (d.userIds[0] ?? '-');
    };
    this.print(keys, () =>
      keys.length === 0
        ? 'No GPG keys: add one with `berth registry gpg-key add FILE`.'
        : renderTable(keys, [
            { header: 'KEY ID', value: (k) => k.attributes['key-id'] },
            { header: 'USER', value: (k) => userOf(k.attributes['ascii-armor']) },
            { header: 'CREATED', value: (k) => k.attributes['created-at'] },
          ]),
    );
  }
}
