import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { agentPoolTable } from '../../cli/views/workspace.js';
import { workspaceIds } from '../../cli/workspaces/workspace-ids.js';
import { AgentPoolsClient } from '../../client/workspaces.js';

export default class AgentPoolCreate extends BerthCommand<typeof AgentPoolCreate> {
  static override summary = 'Create an agent pool (for workspaces in agent execution mode).';
  static override description =
    'By default every workspace of the organization may use the pool; with --no-organization-scoped only the workspaces given with --allow-workspace may.';
  static override examples = [
    '<%= config.bin %> agent-pool create builders --org acme',
    '<%= config.bin %> agent-pool create private --org acme --no-organization-scoped --allow-workspace web',
  ];
  static override args = { name: Args.string({ description: 'pool name', required: true }) };
  static override flags = {
    'organization-scoped': Flags.boolean({
      description:
        'let every workspace of the organization use the pool (default; --no-organization-scoped: allowed ones only)',
      allowNo: true,
    }),
    'allow-workspace': Flags.string({
      description: 'a workspace (name in --org, ORG/NAME or ws- id) the pool serves (repeatable)',
      multiple: true,
      multipleNonGreedy: true,
    }),
  };

  async run(): Promise<void> {
    const org = this.requireOrg();
    const client = await this.client();
    const allowed = this.flags['allow-workspace'] && (await workspaceIds(client, this.flags['allow-workspace'], org));
    const { data } = await new AgentPoolsClient(client).create(org, this.args.name, {
      organizationScoped: this.flags['organization-scoped'],
      allowedWorkspaceIds: allowed || undefined,
    });
    this.print(data, () => `Created agent pool ${data.attributes.name} (${data.id}).\n${agentPoolTable([data])}`);
  }
}
