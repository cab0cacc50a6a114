import { BerthCommand } from '../../../cli/base-command.js';
import { RetentionClient, SITE } from '../../../client/relations.js';

export default class AdminRetentionDelete extends BerthCommand<typeof AdminRetentionDelete> {
  static override summary =
    "Remove the site-wide default data retention policy: the default becomes don't delete again (site administrators).";
  static override examples = ['<%= config.bin %> admin retention delete'];

  async run(): Promise<void> {
    await new RetentionClient(await this.client()).delete(SITE);
    this.print({ deleted: true }, () => "Removed the site-wide default: don't delete applies again.");
  }
}
