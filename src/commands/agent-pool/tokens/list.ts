import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { limitFlag } from '../../../cli/flags/paging.js';
import { usageError } from '../../../cli/common/prompts.js';
import { agentTokenTable } from '../../../cli/views/agent.js';
import { AgentsClient } from '../../../client/agents.js';
import { resolveAgentPoolId } from '../../../client/workspaces.js';

export default class AgentPoolTokensList extends BerthCommand<typeof AgentPoolTokensList> {
  static override summary = 'List the agent tokens of a pool (never their secrets).';
  static override examples = [
    '<%= config.bin %> agent-pool tokens list builders --org acme',
    '<%= config.bin %> agent-pool tokens list apool-ZjT6A7mVFm5WHT5a --json',
  ];
  static override args = { pool: Args.string({ description: 'apool- id, or a pool name with --org', required: true }) };
  static override flags = { ...limitFlag };

  async run(): Promise<void> {
    const client = await this.client();
    if (!/^apool-/.test(this.args.pool) && !this.flags.org)
      throw usageError('a pool name needs --org (or pass the apool- id)');
    const id = await resolveAgentPoolId(client, this.flags.org ?? '', this.args.pool);
    const tokens = await new AgentsClient(client).listTokens(id, { limit: this.flags.limit });
    this.print(tokens, () => (tokens.length === 0 ? 'No agent tokens.' : agentTokenTable(tokens)));
  }
}
