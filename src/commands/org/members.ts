import { Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { limitFlag } from '../../cli/flags/paging.js';
import { memberTable } from '../../cli/views/member.js';
import { membershipsApi } from '../../client/memberships.js';

export default class OrgMembers extends BerthCommand<typeof OrgMembers> {
  static override summary = 'List the members of an organization, and those invited to it.';
  static override description =
    'Owners, the organization token and site administrators may list members. An invited member (status invited) has no access until they accept with `berth org join`.';
  static override examples = [
    '<%= config.bin %> org members --org acme',
    '<%= config.bin %> org members --org acme --status invited',
    '<%= config.bin %> org members --org acme --search alice --json',
  ];
  static override flags = {
    status: Flags.string({ description: 'only members with this status', options: ['invited', 'active'] }),
    search: Flags.string({ description: 'only usernames or emails containing this text' }),
    ...limitFlag,
  };

  async run(): Promise<void> {
    const members = await membershipsApi(await this.client()).list(
      this.requireOrg(),
      {
        status: this.flags.status,
        q: this.flags.search,
      },
      { limit: this.flags.limit },
    );
    this.print(
      members.map((m) => m.membership),
      () => (members.length === 0 ? 'No members.' : memberTable(members)),
    );
  }
}
