import { Args, Flags } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { pickPoolItem, poolIdOf } from '../../../cli/agents/pool-item.js';
import { confirmDestructive } from '../../../cli/common/prompts.js';
import { AgentsClient } from '../../../client/agents.js';

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
    const poolId = await poolIdOf(client, this.flags.org, this.args.pool);
    const agents = new AgentsClient(client);
    const agent = pickPoolItem(await agents.listAgents(poolId), this.args.agent, {
      pool: this.args.pool,
      plural: 'agents',
      called: 'named',
      nameOf: (a) => a.attributes.name,
      describe: (a) => `${a.id} ${a.attributes.status}`,
      missing: `pool ${this.args.pool} has no agent "${this.args.agent}" (berth agent-pool agents POOL)`,
    });
    const label = `${agent.attributes.name} (${agent.id})`;
    await confirmDestructive(`delete agent ${label} of pool ${this.args.pool}`, this.flags);
    await agents.deleteAgent(agent.id);
    this.print({ id: agent.id, type: 'agents', deleted: true }, () => `Deleted agent ${label}.`);
  }
}
