import { Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { limitFlag } from '../../cli/flags/paging.js';
import { renderTable } from '../../cli/output/output.js';
import { usageError } from '../../cli/common/prompts.js';
import { teamsApi, tokensApi } from '../../client/teams.js';
import { tokenUser } from '../../cli/identity/token-user.js';

export default class TokenList extends BerthCommand<typeof TokenList> {
  static override summary = "List a user's or a team's tokens (never their secrets).";
  static override examples = [
    '<%= config.bin %> token list',
    '<%= config.bin %> token list --user alice',
    '<%= config.bin %> token list --team platform --org acme',
  ];
  static override flags = {
    user: Flags.string({ description: 'username (default: the user the token acts as)', exclusive: ['team'] }),
    team: Flags.string({
      description: 'team (team- id, or name within --org) whose tokens to list',
      exclusive: ['user'],
    }),
    ...limitFlag,
  };

  async run(): Promise<void> {
    const client = await this.client();
    const tokens = tokensApi(client);
    let list;
    if (this.flags.team) {
      const teams = teamsApi(client);
      list = await teams.listTokens((await teams.resolve(this.flags.team, this.flags.org)).id, {
        limit: this.flags.limit,
      });
    } else {
      let userId: string;
      // One's own name needs no site-administrator rights (tokenUser resolves it through the account).
      if (this.flags.user) userId = (await tokenUser(client, this.flags.user)).id;
      else {
        const me = (await tokens.whoami()).data.attributes;
        if (!me['user-id']) throw usageError('this token does not act as a user: pass --user NAME or --team TEAM');
        userId = me['user-id'];
      }
      list = await tokens.listForUser(userId, { limit: this.flags.limit });
    }
    this.print(list, () =>
      renderTable(list, [
        { header: 'ID', value: (t) => t.id },
        { header: 'DESCRIPTION', value: (t) => t.attributes.description },
        { header: 'CREATED', value: (t) => t.attributes['created-at'] },
        { header: 'EXPIRES', value: (t) => t.attributes['expired-at'] ?? 'never' },
        { header: 'LAST USED', value: (t) => t.attributes['last-used-at'] ?? '' },
      ]),
    );
  }
}
