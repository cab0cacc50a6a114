import { Args } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { renderFields } from '../../cli/output/output.js';

export default class OrgEntitlements extends BerthCommand<typeof OrgEntitlements> {
  static override summary =
    "Show an organization's entitlement set (what clients such as the Terraform CLI read first).";
  static override examples = [
    '<%= config.bin %> org entitlements acme',
    '<%= config.bin %> org entitlements acme --json',
  ];
  static override args = { name: Args.string({ description: 'organization name', required: true }) };

  async run(): Promise<void> {
    const { data } = await (await this.client()).organizations.entitlements(this.args.name);
    this.print(data, () =>
      renderFields(Object.entries(data.attributes).map(([k, v]): [string, unknown] => [k, v ? 'yes' : 'no'])),
    );
  }
}
