import { Args, Flags } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { usageError } from '../../../cli/common/prompts.js';
import { AgentsClient } from '../../../client/agents.js';
import { resolveAgentPoolId } from '../../../client/workspaces.js';

export default class AgentPoolTokensCreate extends BerthCommand<typeof AgentPoolTokensCreate> {
  static override summary = 'Create an agent token of a pool: what `berth agent --token` registers with (shown once).';
  static override examples = [
    '<%= config.bin %> agent-pool tokens create builders --org acme --description "rack 4"',
    'AGENT_TOKEN=$(<%= config.bin %> agent-pool tokens create builders --org acme --description ci)',
    '<%= config.bin %> agent-pool tokens create apool-ZjT6A7mVFm5WHT5a --description ci --json',
  ];
  static override args = { pool: Args.string({ description: 'apool- id, or a pool name with --org', required: true }) };
  static override flags = {
    description: Flags.string({ description: 'what the token is for (required)', required: true }),
  };

  async run(): Promise<void> {
    const client = await this.client();
    if (!/^apool-/.test(this.args.pool) && !this.flags.org)
      throw usageError('a pool name needs --org (or pass the apool- id)');
    const id = await resolveAgentPoolId(client, this.flags.org ?? '', this.args.pool);
    const { data } = await new AgentsClient(client).createToken(id, this.flags.description);
    // The bare secret on stdout (T=$(berth agent-pool tokens create ...) captures it alone), as
    // `berth token create` prints its own; the words on stderr.
    this.print(data, () => data.attributes.token ?? '');
    if (!this.jsonMode)
      this.note(
        `Created agent token ${data.id} (${data.attributes.description}) of pool ${this.args.pool}. It is shown only this once. ` +
          'Start an agent with it: berth agent --server URL --token TOKEN',
      );
  }
}
