import { BerthCommand } from '../../../cli/base-command.js';
import { retentionDays, retentionFlags } from '../../../cli/instance/retention-flags.js';
import { retentionFields } from '../../../cli/views/relations.js';
import { RetentionClient, SITE } from '../../../client/relations.js';

export default class AdminRetentionSet extends BerthCommand<typeof AdminRetentionSet> {
  static override summary =
    'Set the site-wide default data retention policy, inherited by organizations without their own (self-hosted edition, site administrators).';
  static override examples = [
    '<%= config.bin %> admin retention set --delete-older-than-days 365',
    '<%= config.bin %> admin retention set --dont-delete',
  ];
  static override flags = retentionFlags;

  async run(): Promise<void> {
    const policy = await new RetentionClient(await this.client()).set(SITE, retentionDays(this.flags));
    this.print(policy, () => retentionFields(policy));
  }
}
