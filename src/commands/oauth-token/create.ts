import { Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { oauthTokenTable } from '../../cli/views/workspace.js';
import { OAuthTokensClient } from '../../client/workspaces.js';
import { SERVICE_PROVIDERS } from '../../domain/organizations/oauth-token.js';

export default class OAuthTokenCreate extends BerthCommand<typeof OAuthTokenCreate> {
  static override summary = 'Record an OAuth token of a VCS connection (for --vcs-oauth-token).';
  static override description =
    'berth makes no VCS traffic: the token is a record that workspace VCS settings refer to.';
  static override examples = [
    '<%= config.bin %> oauth-token create --org acme',
    '<%= config.bin %> oauth-token create --org acme --service-provider gitlab_hosted --name gitlab',
  ];
  static override flags = {
    'service-provider': Flags.string({
      description: 'VCS provider',
      default: 'github',
      options: [...SERVICE_PROVIDERS],
    }),
    name: Flags.string({ description: 'a name to recognise it by' }),
  };

  async run(): Promise<void> {
    const { data } = await new OAuthTokensClient(await this.client()).create(this.requireOrg(), {
      'service-provider': this.flags['service-provider'],
      name: this.flags.name,
    });
    this.print(data, () => `Created OAuth token ${data.id}.\n${oauthTokenTable([data])}`);
  }
}
