import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { parseWorkspaceArg } from '../../../cli/workspaces/resolve-workspace.js';
import { retentionTargetName } from '../../../cli/instance/retention-target.js';
import { retentionFields } from '../../../cli/views/relations.js';
import { RetentionClient } from '../../../client/relations.js';

export default class WorkspaceRetentionShow extends BerthCommand<typeof WorkspaceRetentionShow> {
  static override summary = 'Show the data retention policy in force for a workspace.';
  static override examples = ['<%= config.bin %> workspace retention show app-prod --org acme'];
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
  };

  async run(): Promise<void> {
    const client = await this.client();
    const policy = await new RetentionClient(client).show(parseWorkspaceArg(this.args.workspace, this.flags.org));
    const name = this.jsonMode ? null : await retentionTargetName(client, policy);
    this.print(policy, () => retentionFields(policy, name));
  }
}
