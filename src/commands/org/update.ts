import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { organizationFields } from '../../cli/views/organization.js';
import { usageError } from '../../cli/common/prompts.js';
import { resolveAgentPoolId } from '../../client/workspaces.js';

export default class OrgUpdate extends BerthCommand<typeof OrgUpdate> {
  static override summary = 'Change the settings of an organization.';
  static override description =
    'Changes only what is given. The default execution mode (and, for agent, the default agent pool) applies at once to every workspace that does not set its own mode and whose project sets none.';
  static override examples = [
    '<%= config.bin %> org update acme --email platform@acme.test',
    '<%= config.bin %> org update acme --allow-force-delete-workspaces',
    '<%= config.bin %> org update acme --default-execution-mode agent --default-agent-pool builders',
    '<%= config.bin %> org update acme --default-execution-mode local',
    '<%= config.bin %> org update acme --name acme-corp',
  ];
  static override args = { name: Args.string({ description: 'organization name', required: true }) };
  static override flags = {
    name: Flags.string({ description: 'new name (changes the organization URL)' }),
    email: Flags.string({ description: 'contact email' }),
    'default-execution-mode': Flags.string({
      description: 'execution mode of workspaces that do not set one (agent needs --default-agent-pool)',
      options: ['remote', 'local', 'agent'],
    }),
    'default-agent-pool': Flags.string({
      description: 'agent pool (name or apool- id) of the agent default execution mode',
    }),
    'allow-force-delete-workspaces': Flags.boolean({
      description: 'let workspace admins force delete their workspaces',
      allowNo: true,
    }),
    'assessments-enforced': Flags.boolean({
      description: 'enforce health assessments on all workspaces',
      allowNo: true,
    }),
    'send-passing-statuses': Flags.boolean({
      description: 'send passing VCS statuses for untriggered speculative plans',
      allowNo: true,
    }),
    'aggregated-commit-status': Flags.boolean({
      description: 'send one aggregated VCS commit status instead of one per workspace',
      allowNo: true,
    }),
    'speculative-plan-management': Flags.boolean({
      description: 'cancel pending speculative plans of outdated commits',
      allowNo: true,
    }),
  };

  async run(): Promise<void> {
    const f = this.flags;
    const attributes = {
      name: f.name,
      email: f.email,
      'default-execution-mode': f['default-execution-mode'],
      'allow-force-delete-workspaces': f['allow-force-delete-workspaces'],
      'assessments-enforced': f['assessments-enforced'],
      'send-passing-statuses-for-untriggered-speculative-plans': f['send-passing-statuses'],
      'aggregated-commit-status-enabled': f['aggregated-commit-status'],
      'speculative-plan-management-enabled': f['speculative-plan-management'],
    };
    if (Object.values(attributes).every((v) => v === undefined) && f['default-agent-pool'] === undefined)
      throw usageError('nothing to change: pass at least one setting flag');
    const client = await this.client();
    const pool = f['default-agent-pool'];
    const relationships = pool
      ? {
          'default-agent-pool': {
            data: { type: 'agent-pools', id: await resolveAgentPoolId(client, this.args.name, pool) },
          },
        }
      : undefined;
    const { data } = await client.organizations.update(this.args.name, attributes, relationships);
    this.print(data, () => `Updated organization ${data.id}.\n${organizationFields(data)}`);
  }
}
