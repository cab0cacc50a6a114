import { BerthCommand } from '../../cli/base-command.js';
import { limitFlag } from '../../cli/flags/paging.js';
import { Flags } from '../../cli/oclif.js';
import { usageError } from '../../cli/common/prompts.js';
import { parseWorkspaceArg } from '../../cli/workspaces/resolve-workspace.js';
import { varsetTable } from '../../cli/views/variable.js';
import { VarsetsClient } from '../../client/variables.js';
import { WorkspacesClient, resolveProjectId } from '../../client/workspaces.js';

export default class VarsetList extends BerthCommand<typeof VarsetList> {
  static override summary = 'List the variable sets of an organization, a workspace or a project.';
  static override examples = [
    '<%= config.bin %> varset list --org acme',
    '<%= config.bin %> varset list --workspace app-prod --org acme',
    '<%= config.bin %> varset list --project Platform --org acme --json',
  ];
  static override flags = {
    ...limitFlag,
    workspace: Flags.string({ description: 'the sets that apply to this workspace (NAME, ORG/NAME or ws- id)' }),
    project: Flags.string({
      description: 'the sets of this project: applied to it, owned by it, and the global ones (NAME or prj- id)',
    }),
  };

  async run(): Promise<void> {
    const client = await this.client();
    const sets = new VarsetsClient(client);
    const limit = { limit: this.flags.limit };
    if (this.flags.workspace && this.flags.project) throw usageError('give --workspace or --project, not both');
    let list;
    if (this.flags.workspace) {
      const ws = await new WorkspacesClient(client).get(parseWorkspaceArg(this.flags.workspace, this.flags.org));
      list = await sets.listOf('workspaces', ws.data.id, limit);
    } else if (this.flags.project) {
      list = await sets.listOf(
        'projects',
        await resolveProjectId(client, this.requireOrg(), this.flags.project),
        limit,
      );
    } else {
      list = await sets.list(this.requireOrg(), limit);
    }
    this.print(list, () => (list.length === 0 ? 'No variable sets.' : varsetTable(list)));
  }
}
