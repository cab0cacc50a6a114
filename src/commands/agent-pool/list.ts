import { Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { limitFlag } from '../../cli/flags/paging.js';
import { agentPoolTable } from '../../cli/views/workspace.js';
import { AgentPoolsClient } from '../../client/workspaces.js';

export default class AgentPoolList extends BerthCommand<typeof AgentPoolList> {
  static override summary = 'List the agent pools of an organization.';
  static override examples = [
    '<%= config.bin %> agent-pool list --org acme',
    '<%= config.bin %> agent-pool list --org acme --allowed-workspace web',
    '<%= config.bin %> agent-pool list --org acme --json',
  ];
  static override flags = {
    'allowed-workspace': Flags.string({
      description: 'only the pools this workspace (by name) may use: organization-scoped ones and those allowing it',
    }),
    ...limitFlag,
  };

  async run(): Promise<void> {
    const pools = await new AgentPoolsClient(await this.client()).list(
      this.requireOrg(),
      {
        allowedWorkspace: this.flags['allowed-workspace'],
      },
      { limit: this.flags.limit },
    );
    this.print(pools, () => (pools.length === 0 ? 'No agent pools.' : agentPoolTable(pools)));
  }
}
