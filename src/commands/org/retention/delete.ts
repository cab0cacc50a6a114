import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { RetentionClient } from '../../../client/relations.js';

export default class OrgRetentionDelete extends BerthCommand<typeof OrgRetentionDelete> {
  static override summary = 'Remove the data retention policy of an organization (the default of its workspaces).';
  static override examples = ['<%= config.bin %> org retention delete acme'];
  static override args = { organization: Args.string({ description: 'organization name (default: --org)' }) };

  async run(): Promise<void> {
    const owner = this.args.organization ?? this.requireOrg();
    await new RetentionClient(await this.client()).delete(owner);
    this.print({ deleted: true }, () => 'Removed the data retention policy.');
  }
}
