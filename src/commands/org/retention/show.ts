import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { retentionFields } from '../../../cli/views/relations.js';
import { RetentionClient } from '../../../client/relations.js';

export default class OrgRetentionShow extends BerthCommand<typeof OrgRetentionShow> {
  static override summary =
    'Show the data retention policy in force for an organization (the default of its workspaces).';
  static override examples = ['<%= config.bin %> org retention show acme'];
  static override args = { organization: Args.string({ description: 'organization name (default: --org)' }) };

  async run(): Promise<void> {
    const policy = await new RetentionClient(await this.client()).show(this.args.organization ?? this.requireOrg());
    this.print(policy, () => retentionFields(policy));
  }
}
