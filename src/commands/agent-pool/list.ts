import { BerthCommand } from '../../cli/base-command.js';
import { agentPoolTable } from '../../cli/views/workspace.js';
import { AgentPoolsClient } from '../../client/workspaces.js';

export default class AgentPoolList extends BerthCommand<typeof AgentPoolList> {
  static override summary = 'List the agent pools of an organization.';
  static override examples = [
    '<%= config.bin %> agent-pool list --org acme',
    '<%= config.bin %> agent-pool list --org acme --json',
  ];

  async run(): Promise<void> {
    const pools = await new AgentPoolsClient(await this.client()).list(this.requireOrg());
    this.print(pools, () => (pools.length === 0 ? 'No agent pools.' : agentPoolTable(pools)));
  }
}
