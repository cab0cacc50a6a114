import { Args, Flags } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { confirmDestructive, usageError } from '../../../cli/common/prompts.js';
import { AgentsClient } from '../../../client/agents.js';
import { resolveAgentPoolId } from '../../../client/workspaces.js';

export default class AgentPoolAgentsDelete extends BerthCommand<typeof AgentPoolAgentsDelete> {
  static override summary =
    'Delete an agent of a pool that no longer runs (exited, errored or unknown); a running one is refused.';
  static override description =
    'berth also removes exited and errored agents on its own some time after their last ping (serve --agent-retention).';
  static override examples = [
    '<%= config.bin %> agent-pool agents delete builders builder-1 --org acme --yes',
    '<%= config.bin %> agent-pool agents delete apool-ZjT6A7mVFm5WHT5a agent-Q2n8kP4rXw7tYb3L --yes --json',
  ];
  static override args = {
    pool: Args.string({ description: 'apool- id, or a pool name with --org', required: true }),
    agent: Args.string({ description: 'the agent: its name, or its agent- id', required: true }),
  };
  static override flags = {
    yes: Flags.boolean({ char: 'y', description: 'do not ask for confirmation', default: false }),
  };

  async run(): Promise<void> {
    const client = await this.client();
    if (!/^apool-/.test(this.args.pool) && !this.flags.org)
      throw usageError('a pool name needs --org (or pass the apool- id)');
    const poolId = await resolveAgentPoolId(client, this.flags.org ?? '', this.args.pool);
    const agents = new AgentsClient(client);
    const list = await agents.listAgents(poolId);
    const wanted = this.args.agent;
    const byId = list.find((a) => a.id === wanted);
    const byName = list.filter((a) => a.attributes.name === wanted);
    if (!byId && byName.length > 1)
      throw usageError(
        `${byName.length} agents of pool ${this.args.pool} are named "${wanted}": give the id (${byName
          .map((a) => `${a.id} ${a.attributes.status}`)
          .join(', ')})`,
      );
    const agent = byId ?? byName[0];
    if (!agent) throw usageError(`pool ${this.args.pool} has no agent "${wanted}" (berth agent-pool agents POOL)`);
    const label = `${agent.attributes.name} (${agent.id})`;
    await confirmDestructive(`delete agent ${label} of pool ${this.args.pool}`, this.flags);
    await agents.deleteAgent(agent.id);
    this.print({ id: agent.id, type: 'agents', deleted: true }, () => `Deleted agent ${label}.`);
  }
}
