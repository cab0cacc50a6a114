import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { usageError } from '../../../cli/common/prompts.js';
import { parseWorkspaceArg } from '../../../cli/workspaces/resolve-workspace.js';
import { parseTagArg } from '../../../cli/projects/tag-args.js';
import { tagBindingTable } from '../../../cli/views/project.js';
import { WorkspaceRelationsClient } from '../../../client/relations.js';

export default class WorkspaceTagBindingsAdd extends BerthCommand<typeof WorkspaceTagBindingsAdd> {
  static override summary = 'Add key-value tags to a workspace, or change their values.';
  static override description =
    'Never removes a tag. A workspace has at most 10 tags of its own. Prints every tag of the workspace afterwards.';
  static override examples = ['<%= config.bin %> workspace tag-bindings add app-prod env=prod team=web --org acme'];
  static override strict = false;
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
    tags: Args.string({ description: 'KEY=VALUE ... (one or more)' }),
  };

  async run(): Promise<void> {
    const tags = this.positionals.slice(1).map(parseTagArg);
    if (tags.length === 0)
      throw usageError('give at least one tag: berth workspace tag-bindings add WORKSPACE KEY=VALUE ...');
    const added = await new WorkspaceRelationsClient(await this.client()).addTagBindings(
      parseWorkspaceArg(this.args.workspace, this.flags.org),
      tags,
    );
    this.print(added, () => `Added or updated:\n${tagBindingTable(added)}`);
  }
}
