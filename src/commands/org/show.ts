import { Args } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { organizationFields } from '../../cli/views/organization.js';

export default class OrgShow extends BerthCommand<typeof OrgShow> {
  static override summary = 'Show one organization.';
  static override examples = ['<%= config.bin %> org show acme', '<%= config.bin %> org show acme --json'];
  static override args = { name: Args.string({ description: 'organization name', required: true }) };

  async run(): Promise<void> {
    const { data } = await (await this.client()).organizations.get(this.args.name);
    this.print(data, () => organizationFields(data));
  }
}
