import { Args, Flags } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { confirmDestructive } from '../../../cli/common/prompts.js';
import { ReservedTagKeysClient } from '../../../client/reserved-tag-keys.js';

export default class ReservedTagKeyDelete extends BerthCommand<typeof ReservedTagKeyDelete> {
  static override summary = 'Stop reserving a tag key (tags that use it stay).';
  static override examples = ['<%= config.bin %> org reserved-tag-key delete env --org acme --yes'];
  static override args = {
    key: Args.string({ description: 'the reserved key (or its rtk- id)', required: true }),
  };
  static override flags = {
    yes: Flags.boolean({ char: 'y', description: 'do not ask for confirmation', default: false }),
  };

  async run(): Promise<void> {
    const keys = new ReservedTagKeysClient(await this.client());
    const found = await keys.resolve(this.requireOrg(), this.args.key);
    await confirmDestructive(`stop reserving tag key ${found.attributes.key} (${found.id})`, this.flags);
    await keys.delete(found.id);
    this.print(
      { id: found.id, type: 'reserved-tag-keys', deleted: true },
      () => `Deleted reserved tag key ${found.attributes.key} (${found.id}).`,
    );
  }
}
