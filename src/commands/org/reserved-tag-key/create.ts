import { Args, Flags } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { reservedTagKeyTable } from '../../../cli/views/reserved-tag-key.js';
import { ReservedTagKeysClient } from '../../../client/reserved-tag-keys.js';

export default class ReservedTagKeyCreate extends BerthCommand<typeof ReservedTagKeyCreate> {
  static override summary = 'Reserve a tag key in an organization.';
  static override description =
    'Reserved keys are suggested to whoever tags projects and workspaces. With --disable-overrides a workspace may not change the value its project gives the key.';
  static override examples = [
    '<%= config.bin %> org reserved-tag-key create env --org acme',
    '<%= config.bin %> org reserved-tag-key create cost-center --org acme --disable-overrides',
  ];
  static override args = { key: Args.string({ description: 'the tag key', required: true }) };
  static override flags = {
    'disable-overrides': Flags.boolean({
      description: 'forbid workspaces to change the value their project gives this key',
      default: false,
    }),
  };

  async run(): Promise<void> {
    const { data } = await new ReservedTagKeysClient(await this.client()).create(
      this.requireOrg(),
      this.args.key,
      this.flags['disable-overrides'],
    );
    this.print(data, () => `Reserved tag key ${data.attributes.key} (${data.id}).\n${reservedTagKeyTable([data])}`);
  }
}
