import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { retentionDays, retentionFlags } from '../../../cli/instance/retention-flags.js';

import { retentionFields } from '../../../cli/views/relations.js';
import { RetentionClient } from '../../../client/relations.js';

export default class OrgRetentionSet extends BerthCommand<typeof OrgRetentionSet> {
  static override summary =
    'Set the data retention policy of an organization (the default of its workspaces) (self-hosted edition).';
  static override examples = ['<%= config.bin %> org retention set acme --delete-older-than-days 30'];
  static override args = { organization: Args.string({ description: 'organization name (default: --org)' }) };
  static override flags = retentionFlags;

  async run(): Promise<void> {
    const days = retentionDays(this.flags);
    const policy = await new RetentionClient(await this.client()).set(
      this.args.organization ?? this.requireOrg(),
      days,
    );
    this.print(policy, () => retentionFields(policy));
  }
}
