import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { confirmDestructive } from '../../cli/common/prompts.js';

export default class UserDelete extends BerthCommand<typeof UserDelete> {
  static override summary = 'Delete a user and their tokens (site administrators only).';
  static override examples = ['<%= config.bin %> user delete alice --yes'];
  static override args = { name: Args.string({ description: 'username', required: true }) };
  static override flags = {
    yes: Flags.boolean({ char: 'y', description: 'do not ask for confirmation', default: false }),
  };

  async run(): Promise<void> {
    const client = await this.client();
    const user = await client.users.byName(this.args.name);
    await confirmDestructive(`delete user ${this.args.name}`, this.flags);
    await client.users.delete(user.id);
    this.print({ id: user.id, type: 'users', deleted: true }, () => `Deleted user ${this.args.name}.`);
  }
}
