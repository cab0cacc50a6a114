import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { usageError } from '../../cli/common/prompts.js';
import { workspaceNamesOf } from '../../cli/output/related-names.js';
import { agentPoolFields } from '../../cli/views/agent-pool.js';
import { workspaceIds } from '../../cli/workspaces/workspace-ids.js';
import { AgentPoolsClient, resolveAgentPoolId } from '../../client/workspaces.js';

export default class AgentPoolUpdate extends BerthCommand<typeof AgentPoolUpdate> {
  static override summary = 'Rename an agent pool, change its scope or the workspaces it serves.';
  static override description =
    'A pool that is not organization-scoped serves only its allowed workspaces. --allow-workspace replaces the whole list (repeatable); --clear-allowed-workspaces empties it. Workspaces that already use the pool keep it.';
  static override examples = [
    '<%= config.bin %> agent-pool update builders --org acme --name ci-builders',
    '<%= config.bin %> agent-pool update builders --org acme --no-organization-scoped --allow-workspace web --allow-workspace api',
    '<%= config.bin %> agent-pool update apool-ZjT6A7mVFm5WHT5a --organization-scoped --clear-allowed-workspaces',
  ];
  static override args = { pool: Args.string({ description: 'apool- id, or a pool name with --org', required: true }) };
  static override flags = {
    name: Flags.string({ description: 'new name' }),
    'organization-scoped': Flags.boolean({
      description: 'let every workspace of the organization use the pool (--no-organization-scoped: allowed ones only)',
      allowNo: true,
    }),
    'allow-workspace': Flags.string({
      description: 'a workspace (name in --org, ORG/NAME or ws- id) the pool serves; replaces the list (repeatable)',
      multiple: true,
      multipleNonGreedy: true,
      exclusive: ['clear-allowed-workspaces'],
    }),
    'clear-allowed-workspaces': Flags.boolean({
      description: 'empty the list of allowed workspaces',
      exclusive: ['allow-workspace'],
    }),
  };

  async run(): Promise<void> {
    const f = this.flags;
    if (
      f.name === undefined &&
      f['organization-scoped'] === undefined &&
      f['allow-workspace'] === undefined &&
      !f['clear-allowed-workspaces']
    )
      throw usageError(
        'nothing to change: pass --name, --[no-]organization-scoped, --allow-workspace or --clear-allowed-workspaces',
      );
    const client = await this.client();
    if (!/^apool-/.test(this.args.pool) && !f.org) throw usageError('a pool name needs --org (or pass the apool- id)');
    const id = await resolveAgentPoolId(client, f.org ?? '', this.args.pool);
    const allowed = f['clear-allowed-workspaces']
      ? []
      : f['allow-workspace'] && (await workspaceIds(client, f['allow-workspace'], f.org));
    const { data } = await new AgentPoolsClient(client).update(id, {
      name: f.name,
      organizationScoped: f['organization-scoped'],
      allowedWorkspaceIds: allowed || undefined,
    });
    const names = this.jsonMode
      ? new Map<string, string>()
      : await workspaceNamesOf(client, data, ['allowed-workspaces', 'workspaces']);
    this.print(data, () => `Updated agent pool ${data.attributes.name} (${data.id}).\n${agentPoolFields(data, names)}`);
  }
}
