import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { userTable } from '../../cli/views/user.js';

export default class UserCreate extends BerthCommand<typeof UserCreate> {
  static override summary = 'Create a user of this berth instance (site administrators only).';
  static override examples = [
    '<%= config.bin %> user create alice --email alice@acme.test',
    '<%= config.bin %> user create root --email root@acme.test --site-admin',
  ];
  static override args = { name: Args.string({ description: 'username', required: true }) };
  static override flags = {
    email: Flags.string({ description: 'email address', required: true }),
    'site-admin': Flags.boolean({ description: 'make the user a site administrator', default: false }),
  };

  async run(): Promise<void> {
    const { data } = await (
      await this.client()
    ).users.create({
      username: this.args.name,
      email: this.flags.email,
      'is-site-admin': this.flags['site-admin'],
    });
    this.print(data, () => `Created user ${data.attributes.username}.\n${userTable([data])}`);
  }
}
