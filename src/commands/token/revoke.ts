import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { confirmDestructive } from '../../cli/common/prompts.js';
import { tokensApi } from '../../client/teams.js';

export default class TokenRevoke extends BerthCommand<typeof TokenRevoke> {
  static override summary = 'Revoke a token by its id; it stops working at once.';
  static override description =
    'Revoking the token this command runs with (the one you are logged in with) says so and asks to confirm on a terminal; elsewhere it refuses unless --yes is given. Other tokens are revoked without asking.';
  static override examples = [
    '<%= config.bin %> token revoke at-2tX9hJk3mNpQrStU',
    '<%= config.bin %> token revoke at-2tX9hJk3mNpQrStU --yes',
  ];
  static override args = { id: Args.string({ description: 'token id (at-...)', required: true }) };
  static override flags = {
    yes: Flags.boolean({
      char: 'y',
      description: 'do not ask for confirmation when revoking the token in use',
      default: false,
    }),
  };

  async run(): Promise<void> {
    const client = await this.client();
    const tokens = tokensApi(client);
    // Only a command that runs with a token can saw off the branch it sits on.
    if (this.flags.token) {
      const { data: me } = await tokens.whoami();
      if (me.id === this.args.id) {
        this.note(
          `Token ${this.args.id} is the token this command runs with (${this.sources.token}); after revoking it, commands with it fail with 401 until you log in with another.`,
        );
        await confirmDestructive(`revoke the token you are using (${this.args.id})`, this.flags);
      }
    }
    await tokens.revoke(this.args.id);
    this.print(
      { id: this.args.id, type: 'authentication-tokens', deleted: true },
      () => `Revoked token ${this.args.id}.`,
    );
  }
}
