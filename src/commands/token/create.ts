import { Flags } from '@oclif/core';
import { BerthCommand } from '../../cli/base-command.js';
import { usageError } from '../../cli/prompts.js';

export default class TokenCreate extends BerthCommand<typeof TokenCreate> {
  static override summary = 'Mint an API token (shown once).';
  static override description =
    'Mints a token for a user (--user) or a site-administrator token (--site-admin). The secret is printed once on stdout and stored only as a hash; keep it safe.';
  static override examples = [
    '<%= config.bin %> token create --user alice',
    '<%= config.bin %> token create --site-admin --description "CI"',
    'export BERTH_TOKEN=$(<%= config.bin %> token create --user alice)',
  ];
  static override flags = {
    user: Flags.string({ description: 'username the token acts as', exclusive: ['site-admin'] }),
    'site-admin': Flags.boolean({ description: 'a token of the site administrator of this instance', exclusive: ['user'] }),
    description: Flags.string({ description: 'what the token is for' }),
  };

  async run(): Promise<void> {
    const client = await this.client();
    const { user, description } = this.flags;
    let result;
    if (user) {
      const found = await client.users.byName(user);
      result = await client.tokens.createForUser(found.id, description);
    } else if (this.flags['site-admin']) {
      result = await client.tokens.createSiteAdmin(description);
    } else {
      throw usageError('say whose token to create: --user NAME or --site-admin');
    }
    const token = result.data.attributes.token as string;
    this.print(result.data, () => token);
    if (!this.jsonMode) this.note(`Token ${result.data.id} created. It is shown only this once.`);
  }
}
