import { Args } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { usageError } from '../../cli/common/prompts.js';
import { workspaceNamesOf } from '../../cli/output/related-names.js';
import { agentPoolFields } from '../../cli/views/agent-pool.js';
import { AgentPoolsClient, resolveAgentPoolId } from '../../client/workspaces.js';

export default class AgentPoolShow extends BerthCommand<typeof AgentPoolShow> {
  static override summary = 'Show an agent pool: its scope, allowed workspaces and the workspaces that use it.';
  static override examples = [
    '<%= config.bin %> agent-pool show builders --org acme',
    '<%= config.bin %> agent-pool show apool-ZjT6A7mVFm5WHT5a --json',
  ];
  static override args = { pool: Args.string({ description: 'apool- id, or a pool name with --org', required: true }) };

  async run(): Promise<void> {
    const client = await this.client();
    if (!/^apool-/.test(this.args.pool) && !this.flags.org)
      throw usageError('a pool name needs --org (or pass the apool- id)');
    const id = await resolveAgentPoolId(client, this.flags.org ?? '', this.args.pool);
    const { data } = await new AgentPoolsClient(client).get(id);
    const names = this.jsonMode
      ? new Map<string, string>()
      : await workspaceNamesOf(client, data, ['allowed-workspaces', 'workspaces']);
    this.print(data, () => agentPoolFields(data, names));
  }
}
