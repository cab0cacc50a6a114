import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { parseWorkspaceArg } from '../../../cli/workspaces/resolve-workspace.js';
import { RetentionClient } from '../../../client/relations.js';

export default class WorkspaceRetentionDelete extends BerthCommand<typeof WorkspaceRetentionDelete> {
  static override summary = 'Remove the data retention policy of a workspace.';
  static override examples = ['<%= config.bin %> workspace retention delete app-prod --org acme'];
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
  };

  async run(): Promise<void> {
    const owner = parseWorkspaceArg(this.args.workspace, this.flags.org);
    await new RetentionClient(await this.client()).delete(owner);
    this.print({ deleted: true }, () => 'Removed the data retention policy.');
  }
}
