import { Args, Flags } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { confirmDestructive } from '../../../cli/common/prompts.js';
import { membershipsApi } from '../../../client/memberships.js';

export default class OrgMembersRemove extends BerthCommand<typeof OrgMembersRemove> {
  static override summary = 'Remove a member (or an invitation) from an organization.';
  static override description =
    'The user leaves every team of the organization; the user itself is not deleted. Owners remove anyone; a user may remove themselves (leave). The last member of the owners team cannot leave. Asks to confirm on a terminal; elsewhere it needs --yes.';
  static override examples = [
    '<%= config.bin %> org members remove alice@example.com --org acme',
    '<%= config.bin %> org members remove alice --org acme --yes',
    '<%= config.bin %> org members remove ou-2tX9hJk3mNpQrStU --org acme --yes',
  ];
  static override args = {
    member: Args.string({ description: 'email, username or ou- membership id', required: true }),
  };
  static override flags = {
    yes: Flags.boolean({ char: 'y', description: 'do not ask for confirmation', default: false }),
  };

  async run(): Promise<void> {
    const org = this.requireOrg();
    const api = membershipsApi(await this.client());
    // Found before the confirmation: one that is not a member is a 404 (exit 3), never a prompt.
    const id = /^ou-[A-Za-z0-9]{16}$/.test(this.args.member)
      ? this.args.member
      : (await api.resolve(org, this.args.member)).membership.id;
    const who = id === this.args.member ? `membership ${id}` : `${this.args.member} (${id})`;
    await confirmDestructive(`remove ${who} from organization ${org}`, this.flags);
    await api.remove(id);
    this.print(
      { id, type: 'organization-memberships', deleted: true },
      () => `Removed ${this.args.member} from organization ${org}.`,
    );
  }
}
