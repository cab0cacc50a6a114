import { Args, Flags } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { pickPoolItem, poolIdOf } from '../../../cli/agents/pool-item.js';
import { confirmDestructive } from '../../../cli/common/prompts.js';
import { AgentsClient } from '../../../client/agents.js';

export default class AgentPoolTokensDelete extends BerthCommand<typeof AgentPoolTokensDelete> {
  static override summary = 'Delete an agent token of a pool: the agents that use it stop.';
  static override examples = [
    '<%= config.bin %> agent-pool tokens delete builders "rack 4" --org acme --yes',
    '<%= config.bin %> agent-pool tokens delete apool-ZjT6A7mVFm5WHT5a at-2mTGbV6XyLoHs1qs --yes',
  ];
  static override args = {
    pool: Args.string({ description: 'apool- id, or a pool name with --org', required: true }),
    token: Args.string({ description: 'the token: its description, or its at- id', required: true }),
  };
  static override flags = {
    yes: Flags.boolean({ char: 'y', description: 'do not ask for confirmation', default: false }),
  };

  async run(): Promise<void> {
    const client = await this.client();
    const poolId = await poolIdOf(client, this.flags.org, this.args.pool);
    const agents = new AgentsClient(client);
    const token = pickPoolItem(await agents.listTokens(poolId), this.args.token, {
      pool: this.args.pool,
      plural: 'tokens',
      called: 'described',
      nameOf: (t) => t.attributes.description,
      missing: `pool ${this.args.pool} has no agent token "${this.args.token}" (berth agent-pool tokens list)`,
    });
    const label = `${token.attributes.description ?? ''} (${token.id})`;
    await confirmDestructive(`delete agent token ${label} of pool ${this.args.pool}`, this.flags);
    await agents.deleteToken(token.id);
    this.print({ id: token.id, type: 'authentication-tokens', deleted: true }, () => `Deleted agent token ${label}.`);
  }
}
