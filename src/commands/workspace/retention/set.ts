import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { retentionDays, retentionFlags } from '../../../cli/instance/retention-flags.js';
import { parseWorkspaceArg } from '../../../cli/workspaces/resolve-workspace.js';
import { retentionTargetName } from '../../../cli/instance/retention-target.js';
import { retentionFields } from '../../../cli/views/relations.js';
import { RetentionClient } from '../../../client/relations.js';

export default class WorkspaceRetentionSet extends BerthCommand<typeof WorkspaceRetentionSet> {
  static override summary = 'Set the data retention policy of a workspace (self-hosted edition).';
  static override examples = [
    '<%= config.bin %> workspace retention set app-prod --org acme --delete-older-than-days 30',
  ];
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
  };
  static override flags = retentionFlags;

  async run(): Promise<void> {
    const days = retentionDays(this.flags);
    const client = await this.client();
    const policy = await new RetentionClient(client).set(parseWorkspaceArg(this.args.workspace, this.flags.org), days);
    const name = this.jsonMode ? null : await retentionTargetName(client, policy);
    this.print(policy, () => retentionFields(policy, name));
  }
}
