import { BerthCommand } from '../../cli/base-command.js';
import { renderFields } from '../../cli/output.js';
import { RetentionClient } from '../../client/relations.js';

export default class MaintenancePrune extends BerthCommand<typeof MaintenancePrune> {
  static override summary = 'Delete state versions and run records older than the data retention policies allow.';
  static override description =
    "For every workspace whose policy in force (its own, else its organization's) deletes data older than N days. The current state version and the current run are always kept. Site administrators only (local mode acts as one); self-hosted edition. berth serve also does this periodically (--prune-interval).";
  static override examples = [
    '<%= config.bin %> maintenance prune',
    '<%= config.bin %> maintenance prune --server https://berth.example.com --token $SITE_TOKEN',
  ];

  async run(): Promise<void> {
    const result = await new RetentionClient(await this.client()).prune();
    const a = result.attributes;
    this.print(a, () =>
      renderFields([
        ['Workspaces with a deleting policy', a.workspaces],
        ['State versions deleted', a['state-versions']],
        ['Runs deleted', a.runs],
      ]),
    );
  }
}
