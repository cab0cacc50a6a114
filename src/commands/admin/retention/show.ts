import { BerthCommand } from '../../../cli/base-command.js';
import { retentionFields } from '../../../cli/views/relations.js';
import { RetentionClient, SITE } from '../../../client/relations.js';

export default class AdminRetentionShow extends BerthCommand<typeof AdminRetentionShow> {
  static override summary =
    'Show the site-wide default data retention policy, which organizations without a policy of their own inherit (self-hosted edition, site administrators).';
  static override description =
    "Until a site administrator sets one, the default is don't delete (keep every state version and run).";
  static override examples = [
    '<%= config.bin %> admin retention show',
    '<%= config.bin %> admin retention show --json',
  ];

  async run(): Promise<void> {
    const policy = await new RetentionClient(await this.client()).show(SITE);
    this.print(policy, () => retentionFields(policy));
  }
}
