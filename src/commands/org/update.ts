import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { organizationFields } from '../../cli/views/organization.js';
import { usageError } from '../../cli/prompts.js';

export default class OrgUpdate extends BerthCommand<typeof OrgUpdate> {
  static override summary = 'Change the settings of an organization.';
  static override examples = [
    '<%= config.bin %> org update acme --email platform@acme.test',
    '<%= config.bin %> org update acme --allow-force-delete-workspaces',
    '<%= config.bin %> org update acme --name acme-corp',
  ];
  static override args = { name: Args.string({ description: 'organization name', required: true }) };
  static override flags = {
    name: Flags.string({ description: 'new name (changes the organization URL)' }),
    email: Flags.string({ description: 'contact email' }),
    'default-execution-mode': Flags.string({
      description: 'execution mode of workspaces that do not set one',
      options: ['remote', 'local', 'agent'],
    }),
    'allow-force-delete-workspaces': Flags.boolean({
      description: 'let workspace admins force delete their workspaces',
      allowNo: true,
    }),
    'assessments-enforced': Flags.boolean({
      description: 'enforce health assessments on all workspaces',
      allowNo: true,
    }),
  };

  async run(): Promise<void> {
    const attributes = {
      name: this.flags.name,
      email: this.flags.email,
      'default-execution-mode': this.flags['default-execution-mode'],
      'allow-force-delete-workspaces': this.flags['allow-force-delete-workspaces'],
      'assessments-enforced': this.flags['assessments-enforced'],
    };
    if (Object.values(attributes).every((v) => v === undefined))
      throw usageError('nothing to change: pass at least one setting flag');
    const { data } = await (await this.client()).organizations.update(this.args.name, attributes);
    this.print(data, () => `Updated organization ${data.id}.\n${organizationFields(data)}`);
  }
}
