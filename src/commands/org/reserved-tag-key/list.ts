import { BerthCommand } from '../../../cli/base-command.js';
import { limitFlag } from '../../../cli/flags/paging.js';
import { reservedTagKeyTable } from '../../../cli/views/reserved-tag-key.js';
import { ReservedTagKeysClient } from '../../../client/reserved-tag-keys.js';

export default class ReservedTagKeyList extends BerthCommand<typeof ReservedTagKeyList> {
  static override summary = 'List the tag keys an organization reserves.';
  static override examples = [
    '<%= config.bin %> org reserved-tag-key list --org acme',
    '<%= config.bin %> org reserved-tag-key list --org acme --json',
  ];

  static override flags = { ...limitFlag };

  async run(): Promise<void> {
    const keys = await new ReservedTagKeysClient(await this.client()).list(this.requireOrg(), {
      limit: this.flags.limit,
    });
    this.print(keys, () => (keys.length === 0 ? 'No reserved tag keys.' : reservedTagKeyTable(keys)));
  }
}
