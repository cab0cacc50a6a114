import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { limitFlag } from '../../../cli/flags/paging.js';
import { parseWorkspaceArg } from '../../../cli/workspaces/resolve-workspace.js';
import { flatTagTable } from '../../../cli/views/relations.js';
import { WorkspaceRelationsClient } from '../../../client/relations.js';

export default class WorkspaceTagsList extends BerthCommand<typeof WorkspaceTagsList> {
  static override summary = 'List the flat (string) tags of a workspace.';
  static override examples = ['<%= config.bin %> workspace tags list app-prod --org acme'];
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
  };

  static override flags = { ...limitFlag };

  async run(): Promise<void> {
    const tags = await new WorkspaceRelationsClient(await this.client()).tags(
      parseWorkspaceArg(this.args.workspace, this.flags.org),
      { limit: this.flags.limit },
    );
    this.print(tags, () => (tags.length === 0 ? 'No tags.' : flatTagTable(tags, false)));
  }
}
