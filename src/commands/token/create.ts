import { Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { expiryOf } from '../../cli/identity/token-expiry.js';
import { tokenUser } from '../../cli/identity/token-user.js';
import type { SingleResult } from '../../client/jsonapi.js';
import { teamsApi, tokensApi } from '../../client/teams.js';

export default class TokenCreate extends BerthCommand<typeof TokenCreate> {
  static override summary = 'Mint an API token (shown once).';
  static override description = `Mints a token for a user (--user; without any of these flags, the user the current token acts as), a team (--team), an organization (--org given on the command line, with no other kind), or the site administrator (--site-admin). The secret is printed once on stdout and stored only as a hash; keep it safe. A user mints tokens for itself (no site-administrator rights needed, --user its own name or none); a site administrator for anyone.

An organization has one token: creating another replaces (revokes) the previous one. A team has one token without a description, replaced the same way, and any number of tokens with a description (unique within the team).

--expires (user, team and organization tokens) takes a time or a duration from now; the token stops working then. A time that has passed is refused.`;
  static override examples = [
    '<%= config.bin %> token create --description laptop --expires 30d',
    '<%= config.bin %> token create --user alice',
    '<%= config.bin %> token create --team platform --org acme',
    '<%= config.bin %> token create --team platform --org acme --description "CI deploys" --expires 30d',
    '<%= config.bin %> token create --org acme --expires 2030-01-31T00:00:00Z',
    '<%= config.bin %> token create --org acme',
    '<%= config.bin %> token create --site-admin --description "CI"',
    'export BERTH_TOKEN=$(<%= config.bin %> token create --user alice)',
  ];
  static override flags = {
    user: Flags.string({
      description: 'username the token acts as (default: the user the current token acts as)',
      exclusive: ['site-admin', 'team'],
    }),
    team: Flags.string({
      description: 'team (team- id, or name within --org) the token acts as',
      exclusive: ['site-admin', 'user'],
    }),
    'site-admin': Flags.boolean({
      description: 'a token of a site-administrator user: yours, or in local mode the user admin',
      exclusive: ['user', 'team'],
    }),
    description: Flags.string({ description: 'what the token is for' }),
    expires: Flags.string({
      description: 'when the token stops working: a time, or a duration from now such as 30d or 12h',
      exclusive: ['site-admin'],
    }),
  };

  async run(): Promise<void> {
    const client = await this.client();
    const { user, team, description } = this.flags;
    const expiredAt = expiryOf(this.flags.expires);
    const orgOnCommandLine = this.argv.some((a) => a === '--org' || a.startsWith('--org=') || a.startsWith('-o'));
    let result: SingleResult;
    if (team) {
      const teams = teamsApi(client);
      result = await teams.createToken((await teams.resolve(team, this.flags.org)).id, { description, expiredAt });
    } else if (this.flags['site-admin']) {
      result = await client.tokens.createSiteAdmin(description);
    } else if (!user && orgOnCommandLine && this.flags.org) {
      result = await tokensApi(client).createForOrganization(this.flags.org, description, expiredAt);
    } else {
      // --user NAME, or the caller: the user behind the current token.
      const found = await tokenUser(client, user);
      result = await client.tokens.createForUser(found.id, description, expiredAt);
    }
    const token = result.data.attributes.token as string;
    this.print(result.data, () => token);
    if (!this.jsonMode) this.note(`Token ${result.data.id} created. It is shown only this once.`);
  }
}
