import { Args } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { agentPoolOf } from '../../cli/output/related-names.js';
import { organizationFields } from '../../cli/views/organization.js';

export default class OrgShow extends BerthCommand<typeof OrgShow> {
  static override summary = 'Show one organization.';
  static override description =
    'Without NAME, shows the organization of --org, $BERTH_ORG or the config file (as every other command does).';
  static override examples = [
    '<%= config.bin %> org show acme',
    '<%= config.bin %> org show acme --json',
    'BERTH_ORG=acme <%= config.bin %> org show',
  ];
  static override args = { name: Args.string({ description: 'organization name (default: --org / $BERTH_ORG)' }) };

  async run(): Promise<void> {
    const client = await this.client();
    // A person reads the default project's and agent pool's names: the project comes included.
    const { data, included } = await client.organizations.get(
      this.args.name ?? this.requireOrg(),
      this.jsonMode ? undefined : 'default_project',
    );
    const pool = this.jsonMode ? null : await agentPoolOf(client, data, 'default-agent-pool');
    this.print(data, () => organizationFields(data, [...(included ?? []), ...(pool ? [pool] : [])]));
  }
}
