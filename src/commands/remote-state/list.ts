import { Args } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { projectNamesOf } from '../../cli/output/related-names.js';
import { limitFlag } from '../../cli/flags/paging.js';
import { parseWorkspaceArg } from '../../cli/workspaces/resolve-workspace.js';
import { workspaceTable } from '../../cli/views/workspace.js';
import { WorkspaceRelationsClient } from '../../client/relations.js';

export default class RemoteStateList extends BerthCommand<typeof RemoteStateList> {
  static override summary = "List the workspaces that may read a workspace's state.";
  static override description = 'With global remote state on, that is every other workspace of the organization.';
  static override examples = ['<%= config.bin %> remote-state list network --org acme'];
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
  };

  static override flags = { ...limitFlag };

  async run(): Promise<void> {
    const client = await this.client();
    const list = await new WorkspaceRelationsClient(client).consumers(
      parseWorkspaceArg(this.args.workspace, this.flags.org),
      { limit: this.flags.limit },
    );
    const projects = this.jsonMode ? new Map<string, string>() : await projectNamesOf(client, list);
    this.print(list, () => (list.length === 0 ? 'No remote state consumers.' : workspaceTable(list, projects)));
  }
}
