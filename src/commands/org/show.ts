import { Args } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
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
    const { data } = await (await this.client()).organizations.get(this.args.name ?? this.requireOrg());
    this.print(data, () => organizationFields(data));
  }
}
