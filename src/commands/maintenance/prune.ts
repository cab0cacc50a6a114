import { Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { renderFields } from '../../cli/output/output.js';
import { confirmDestructive } from '../../cli/common/prompts.js';
import { RetentionClient } from '../../client/relations.js';
import { plural } from '../../domain/common/plural.js';

export default class MaintenancePrune extends BerthCommand<typeof MaintenancePrune> {
  static override summary = 'Delete state versions and run records older than the data retention policies allow.';
  static override description =
    "For every workspace whose policy in force (its own, else its organization's) deletes data older than N days. The current state version and the current run are always kept. Site administrators only (local mode acts as one); self-hosted edition. berth serve also does this periodically (--prune-interval).\n\nFirst shows what would be deleted and asks to confirm on a terminal; elsewhere it refuses unless --yes is given. --dry-run shows what would be deleted and deletes nothing.";
  static override examples = [
    '<%= config.bin %> maintenance prune --dry-run',
    '<%= config.bin %> maintenance prune --yes',
    '<%= config.bin %> maintenance prune --server https://berth.example.com --token $SITE_TOKEN --yes',
  ];
  static override flags = {
    'dry-run': Flags.boolean({ description: 'show what would be deleted, delete nothing', default: false }),
    yes: Flags.boolean({ char: 'y', description: 'do not ask for confirmation', default: false }),
  };

  async run(): Promise<void> {
    const retention = new RetentionClient(await this.client());
    const preview = (await retention.previewPrune()).attributes;
    const counts = (a: typeof preview) =>
      renderFields([
        ['Workspaces with a deleting policy', a.workspaces],
        ['State versions deleted', a['state-versions']],
        ['Runs deleted', a.runs],
      ]);
    if (this.flags['dry-run']) {
      this.print(preview, () => `Dry run: nothing was deleted. Pruning now would delete:\n${counts(preview)}`);
      return;
    }
    if (preview['state-versions'] === 0 && preview.runs === 0) {
      const { 'dry-run': _dryRun, ...nothing } = preview;
      this.print(nothing, () => `Nothing to prune.\n${counts(preview)}`);
      return;
    }
    this.note(
      `Pruning deletes ${plural(Number(preview['state-versions']), 'state version')} and ${plural(Number(preview.runs), 'run')} in ${plural(Number(preview.workspaces), 'workspace')}.`,
    );
    await confirmDestructive('delete this data', this.flags);
    const result = await retention.prune();
    this.print(result.attributes, () => counts(result.attributes));
  }
}
