import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { bulkFlags, bulkTable, matchingWorkspaces, runBulk } from '../../../cli/workspaces/bulk.js';
import { usageError } from '../../../cli/common/prompts.js';
import { parseWorkspaceArg } from '../../../cli/workspaces/resolve-workspace.js';
import { flatTagTable } from '../../../cli/views/relations.js';
import { WorkspaceRelationsClient } from '../../../client/relations.js';

export default class WorkspaceTagsAdd extends BerthCommand<typeof WorkspaceTagsAdd> {
  static override summary =
    'Add flat (string) tags to a workspace (or every workspace matching filters); new names become organization tags.';
  static override description = `Names are lower-cased; letters, digits, -, _ and : only. Prints the workspace's tags afterwards.

With --all-matching and the filters of \`workspace list\`, every argument is a tag and every matching workspace gets them: a preview, a confirmation on a terminal (or --yes), a result per workspace, and a non-zero exit if any failed. --dry-run previews and changes nothing.`;
  static override examples = [
    '<%= config.bin %> workspace tags add app-prod prod team:web --org acme',
    '<%= config.bin %> workspace tags add --all-matching --wildcard "app-*" --org acme frozen --yes',
  ];
  static override strict = false;
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME (not with --all-matching)' }),
    tags: Args.string({ description: 'TAG ... (one or more)' }),
  };
  static override flags = {
    ...bulkFlags('tag'),
  };

  async run(): Promise<void> {
    const pair = this.positionals.slice(this.flags['all-matching'] ? 0 : 1).find((t) => t.includes('='));
    if (pair !== undefined)
      throw usageError(
        `"${pair}" is not a flat tag (names have no "="); for a key-value tag use berth workspace update WORKSPACE --tag ${pair}`,
      );
    const client = await this.client();
    const relations = new WorkspaceRelationsClient(client);
    if (this.flags['all-matching']) {
      const names = this.positionals;
      if (names.length === 0)
        throw usageError('give at least one tag: berth workspace tags add --all-matching [filters] TAG ...');
      const items = await matchingWorkspaces(client, this.requireOrg(), undefined, this.flags);
      const { results, exitCode } = await runBulk(items, `Tagging (${names.join(', ')})`, this.flags, (w) =>
        relations.changeTags({ id: w.id }, 'add', names),
      );
      this.print(results, () => bulkTable(results));
      if (exitCode !== 0) this.exit(exitCode);
      return;
    }
    const names = this.positionals.slice(1);
    if (!this.args.workspace || names.length === 0)
      throw usageError('give at least one tag: berth workspace tags add WORKSPACE TAG ...');
    const ref = parseWorkspaceArg(this.args.workspace, this.flags.org);
    await relations.changeTags(ref, 'add', names);
    const tags = await relations.tags(ref);
    this.print(tags, () => (tags.length === 0 ? 'No tags.' : flatTagTable(tags, false)));
  }
}
