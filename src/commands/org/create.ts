import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { organizationFields } from '../../cli/views/organization.js';

export default class OrgCreate extends BerthCommand<typeof OrgCreate> {
  static override summary = 'Create an organization.';
  /** Sets berth up: may create the SQLite database file. */
  static override createsDatabase = true;
  static override description =
    'Creates an organization with its "Default Project" and its owners team. When a user token creates it, that user becomes an owner.';
  static override examples = [
    '<%= config.bin %> org create acme --email ops@acme.test',
    '<%= config.bin %> org create acme --email ops@acme.test --default-execution-mode local --json',
  ];
  static override args = {
    name: Args.string({ description: 'organization name (letters, digits, -, _)', required: true }),
  };
  static override flags = {
    email: Flags.string({ description: 'contact email of the organization', required: true }),
    'default-execution-mode': Flags.string({
      description: 'execution mode of workspaces that do not set one',
      options: ['remote', 'local', 'agent'],
    }),
    'allow-force-delete-workspaces': Flags.boolean({
      description: 'let workspace admins force delete their workspaces',
      allowNo: true,
    }),
  };

  async run(): Promise<void> {
    const client = await this.client();
    const { data } = await client.organizations.create({
      name: this.args.name,
      email: this.flags.email,
      'default-execution-mode': this.flags['default-execution-mode'],
      'allow-force-delete-workspaces': this.flags['allow-force-delete-workspaces'],
    });
    this.print(data, () => `Created organization ${data.id}.\n${organizationFields(data)}`);
  }
}
