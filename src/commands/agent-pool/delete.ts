import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { confirmDestructive, usageError } from '../../cli/common/prompts.js';
import { AgentPoolsClient, resolveAgentPoolId } from '../../client/workspaces.js';

export default class AgentPoolDelete extends BerthCommand<typeof AgentPoolDelete> {
  static override summary = 'Delete an agent pool (refused while workspaces use it).';
  static override examples = [
    '<%= config.bin %> agent-pool delete builders --org acme --yes',
    '<%= config.bin %> agent-pool delete apool-ZjT6A7mVFm5WHT5a --yes',
  ];
  static override args = { pool: Args.string({ description: 'apool- id, or a pool name with --org', required: true }) };
  static override flags = {
    yes: Flags.boolean({ char: 'y', description: 'do not ask for confirmation', default: false }),
  };

  async run(): Promise<void> {
    const client = await this.client();
    const pool = this.args.pool;
    if (!/^apool-/.test(pool) && !this.flags.org) throw usageError('a pool name needs --org (or pass the apool- id)');
    const id = await resolveAgentPoolId(client, this.flags.org ?? '', pool);
    const pools = new AgentPoolsClient(client);
    const { data } = await pools.get(id);
    await confirmDestructive(`delete agent pool ${data.attributes.name} (${id})`, this.flags);
    await pools.delete(id);
    this.print({ id, type: 'agent-pools', deleted: true }, () => `Deleted agent pool ${data.attributes.name} (${id}).`);
  }
}
