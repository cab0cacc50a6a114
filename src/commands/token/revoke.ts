import { Args } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { tokensApi } from '../../client/teams.js';

export default class TokenRevoke extends BerthCommand<typeof TokenRevoke> {
  static override summary = 'Revoke a token by its id; it stops working at once.';
  static override examples = ['<%= config.bin %> token revoke at-2tX9hJk3mNpQrStU'];
  static override args = { id: Args.string({ description: 'token id (at-...)', required: true }) };

  async run(): Promise<void> {
    await tokensApi(await this.client()).revoke(this.args.id);
    this.print(
      { id: this.args.id, type: 'authentication-tokens', deleted: true },
      () => `Revoked token ${this.args.id}.`,
    );
  }
}
