import { Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { renderTable } from '../../cli/output.js';
import { usageError } from '../../cli/prompts.js';
import { tokensApi } from '../../client/teams.js';

export default class TokenList extends BerthCommand<typeof TokenList> {
  static override summary = "List a user's tokens (never their secrets).";
  static override examples = ['<%= config.bin %> token list', '<%= config.bin %> token list --user alice'];
  static override flags = { user: Flags.string({ description: 'username (default: the user the token acts as)' }) };

  async run(): Promise<void> {
    const client = await this.client();
    const tokens = tokensApi(client);
    let userId: string;
    if (this.flags.user) userId = (await client.users.byName(this.flags.user)).id;
    else {
      const me = (await tokens.whoami()).data.attributes;
      if (!me['user-id']) throw usageError('this token does not act as a user: pass --user NAME');
      userId = me['user-id'];
    }
    const list = await tokens.listForUser(userId);
    this.print(list, () =>
      renderTable(list, [
        { header: 'ID', value: (t) => t.id },
        { header: 'DESCRIPTION', value: (t) => t.attributes.description },
        { header: 'CREATED', value: (t) => t.attributes['created-at'] },
      ]),
    );
  }
}
