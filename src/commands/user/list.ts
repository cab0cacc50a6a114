import { Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { limitFlag } from '../../cli/flags/paging.js';
import { userTable } from '../../cli/views/user.js';

export default class UserList extends BerthCommand<typeof UserList> {
  static override summary = 'List the users of this berth instance (site administrators only).';
  static override examples = ['<%= config.bin %> user list', '<%= config.bin %> user list --search ali --json'];
  static override flags = {
    search: Flags.string({ description: 'only usernames or emails containing this text' }),
    ...limitFlag,
  };

  async run(): Promise<void> {
    const users = await (await this.client()).users.list(this.flags.search, { limit: this.flags.limit });
    this.print(users, () => (users.length === 0 ? 'No users.' : userTable(users)));
  }
}
