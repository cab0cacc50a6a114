import { Args } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { agentPoolTable } from '../../cli/views/workspace.js';
import { AgentPoolsClient } from '../../client/workspaces.js';

export default class AgentPoolCreate extends BerthCommand<typeof AgentPoolCreate> {
  static override summary = 'Create an agent pool (for workspaces in agent execution mode).';
  static override examples = ['<%= config.bin %> agent-pool create builders --org acme'];
  static override args = { name: Args.string({ description: 'pool name', required: true }) };

  async run(): Promise<void> {
    const { data } = await new AgentPoolsClient(await this.client()).create(this.requireOrg(), this.args.name);
    this.print(data, () => `Created agent pool ${data.attributes.name} (${data.id}).\n${agentPoolTable([data])}`);
  }
}
