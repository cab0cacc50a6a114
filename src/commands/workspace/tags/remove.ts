import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { usageError } from '../../../cli/common/prompts.js';
import { parseWorkspaceArg } from '../../../cli/workspaces/resolve-workspace.js';
import { flatTagTable } from '../../../cli/views/relations.js';
import { WorkspaceRelationsClient } from '../../../client/relations.js';

export default class WorkspaceTagsRemove extends BerthCommand<typeof WorkspaceTagsRemove> {
  static override summary = 'Remove flat (string) tags from a workspace.';
  static override description =
    "Names the workspace does not carry are ignored. Prints the workspace's tags afterwards.";
  static override examples = ['<%= config.bin %> workspace tags remove app-prod prod team:web --org acme'];
  static override strict = false;
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
    tags: Args.string({ description: 'TAG ... (one or more)' }),
  };

  async run(): Promise<void> {
    const names = this.positionals.slice(1);
    if (names.length === 0) throw usageError('give at least one tag: berth workspace tags remove WORKSPACE TAG ...');
    const ref = parseWorkspaceArg(this.args.workspace, this.flags.org);
    const relations = new WorkspaceRelationsClient(await this.client());
    await relations.changeTags(ref, 'remove', names);
    const tags = await relations.tags(ref);
    this.print(tags, () => (tags.length === 0 ? 'No tags.' : flatTagTable(tags, false)));
  }
}
