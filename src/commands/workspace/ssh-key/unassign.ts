import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { parseWorkspaceArg } from '../../../cli/workspaces/resolve-workspace.js';
import { SshKeysClient } from '../../../client/relations.js';

export default class WorkspaceSshKeyUnassign extends BerthCommand<typeof WorkspaceSshKeyUnassign> {
  static override summary = 'Remove the SSH key from a workspace (the key itself stays).';
  static override examples = ['<%= config.bin %> workspace ssh-key unassign app-prod --org acme'];
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
  };

  async run(): Promise<void> {
    const ws = await new SshKeysClient(await this.client()).assign(
      parseWorkspaceArg(this.args.workspace, this.flags.org),
      null,
    );
    this.print(ws, () => `Workspace ${ws.attributes.name} has no SSH key now.`);
  }
}
