import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { limitFlag } from '../../cli/flags/paging.js';
import { usageError } from '../../cli/common/prompts.js';
import { agentTable } from '../../cli/views/agent.js';
import { AgentsClient } from '../../client/agents.js';
import { resolveAgentPoolId } from '../../client/workspaces.js';

export default class AgentPoolAgents extends BerthCommand<typeof AgentPoolAgents> {
  static override summary = 'List the agents of a pool: name, status (idle, busy, exited, ...), address, last ping.';
  static override examples = [
    '<%= config.bin %> agent-pool agents builders --org acme',
    '<%= config.bin %> agent-pool agents builders --org acme --running',
    '<%= config.bin %> agent-pool agents apool-ZjT6A7mVFm5WHT5a --json',
  ];
  static override args = { pool: Args.string({ description: 'apool- id, or a pool name with --org', required: true }) };
  static override flags = {
    running: Flags.boolean({ description: 'only agents that are running (idle or busy)', default: false }),
    ...limitFlag,
  };

  async run(): Promise<void> {
    const client = await this.client();
    if (!/^apool-/.test(this.args.pool) && !this.flags.org)
      throw usageError('a pool name needs --org (or pass the apool- id)');
    const id = await resolveAgentPoolId(client, this.flags.org ?? '', this.args.pool);
    let agents = await new AgentsClient(client).listAgents(id, {}, { limit: this.flags.limit });
    if (this.flags.running)
      agents = agents.filter((a) => a.attributes.status === 'idle' || a.attributes.status === 'busy');
    this.print(agents, () => (agents.length === 0 ? `No agents in pool ${this.args.pool}.` : agentTable(agents)));
  }
}
