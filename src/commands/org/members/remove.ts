import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { membershipsApi } from '../../../client/memberships.js';

export default class OrgMembersRemove extends BerthCommand<typeof OrgMembersRemove> {
  static override summary = 'Remove a member (or an invitation) from an organization.';
  static override description =
    'The user leaves every team of the organization; the user itself is not deleted. Owners remove anyone; a user may remove themselves (leave). The last member of the owners team cannot leave.';
  static override examples = [
    '<%= config.bin %> org members remove alice@example.com --org acme',
    '<%= config.bin %> org members remove alice --org acme',
    '<%= config.bin %> org members remove ou-2tX9hJk3mNpQrStU --org acme',
  ];
  static override args = {
    member: Args.string({ description: 'email, username or ou- membership id', required: true }),
  };

  async run(): Promise<void> {
    const org = this.requireOrg();
    const api = membershipsApi(await this.client());
    const id = /^ou-[A-Za-z0-9]{16}$/.test(this.args.member)
      ? this.args.member
      : (await api.resolve(org, this.args.member)).membership.id;
    await api.remove(id);
    this.print(
      { id, type: 'organization-memberships', deleted: true },
      () => `Removed ${this.args.member} from organization ${org}.`,
    );
  }
}
