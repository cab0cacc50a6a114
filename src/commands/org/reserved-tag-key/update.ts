import { Args, Flags } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { usageError } from '../../../cli/common/prompts.js';
import { reservedTagKeyTable } from '../../../cli/views/reserved-tag-key.js';
import { ReservedTagKeysClient } from '../../../client/reserved-tag-keys.js';

export default class ReservedTagKeyUpdate extends BerthCommand<typeof ReservedTagKeyUpdate> {
  static override summary = 'Rename a reserved tag key or change whether workspaces may override it.';
  static override examples = [
    '<%= config.bin %> org reserved-tag-key update env --org acme --key environment',
    '<%= config.bin %> org reserved-tag-key update env --org acme --no-disable-overrides',
  ];
  static override args = {
    key: Args.string({ description: 'the reserved key (or its rtk- id)', required: true }),
  };
  static override flags = {
    key: Flags.string({ description: 'new key' }),
    'disable-overrides': Flags.boolean({
      description: 'forbid (or, with --no-disable-overrides, allow) workspaces to change the value their project gives',
      allowNo: true,
    }),
  };

  async run(): Promise<void> {
    if (this.flags.key === undefined && this.flags['disable-overrides'] === undefined)
      throw usageError('nothing to change: pass --key or --[no-]disable-overrides');
    const keys = new ReservedTagKeysClient(await this.client());
    const found = await keys.resolve(this.requireOrg(), this.args.key);
    const { data } = await keys.update(found.id, {
      key: this.flags.key,
      disableOverrides: this.flags['disable-overrides'],
    });
    this.print(
      data,
      () => `Updated reserved tag key ${data.attributes.key} (${data.id}).\n${reservedTagKeyTable([data])}`,
    );
  }
}
