import { BerthCommand } from '../../cli/base-command.js';
import { limitFlag } from '../../cli/flags/paging.js';
import { oauthTokenTable } from '../../cli/views/workspace.js';
import { OAuthTokensClient } from '../../client/workspaces.js';

export default class OAuthTokenList extends BerthCommand<typeof OAuthTokenList> {
  static override summary = 'List the OAuth tokens (VCS connections) of an organization.';
  static override examples = ['<%= config.bin %> oauth-token list --org acme'];

  static override flags = { ...limitFlag };

  async run(): Promise<void> {
    const tokens = await new OAuthTokensClient(await this.client()).list(this.requireOrg(), {
      limit: this.flags.limit,
    });
    this.print(tokens, () => (tokens.length === 0 ? 'No OAuth tokens.' : oauthTokenTable(tokens)));
  }
}
