import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { limited, limitFlag } from '../../../cli/flags/paging.js';
import { parseWorkspaceArg } from '../../../cli/workspaces/resolve-workspace.js';
import { tagBindingTable } from '../../../cli/views/project.js';
import { WorkspaceRelationsClient } from '../../../client/relations.js';

export default class WorkspaceTagBindingsList extends BerthCommand<typeof WorkspaceTagBindingsList> {
  static override summary = 'List the key-value tags set on a workspace itself.';
  static override description = 'Tags inherited from the project are listed by "workspace tag-bindings effective".';
  static override examples = ['<%= config.bin %> workspace tag-bindings list app-prod --org acme'];
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
  };

  static override flags = { ...limitFlag };

  async run(): Promise<void> {
    const tags = limited(
      await new WorkspaceRelationsClient(await this.client()).tagBindings(
        parseWorkspaceArg(this.args.workspace, this.flags.org),
      ),
      this.flags.limit,
      (shown, total) => this.limitNote(shown, total),
    );
    this.print(tags, () => (tags.length === 0 ? 'No tags.' : tagBindingTable(tags)));
  }
}
