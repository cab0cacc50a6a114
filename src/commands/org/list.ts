import { Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { organizationTable } from '../../cli/views/organization.js';

export default class OrgList extends BerthCommand<typeof OrgList> {
  static override summary = 'List the organizations you can see.';
  static override examples = ['<%= config.bin %> org list', '<%= config.bin %> org list --search acme --json'];
  static override flags = {
    search: Flags.string({ description: 'only names containing this text (case-insensitive)' }),
    page: Flags.integer({ description: 'page number (lists every page when omitted)', min: 1 }),
    'page-size': Flags.integer({ description: 'items per page, 1 to 100', min: 1, max: 100 }),
  };

  async run(): Promise<void> {
    const client = await this.client();
    const { page, 'page-size': pageSize, search } = this.flags;
    const orgs =
      page || pageSize
        ? (await client.organizations.list({ page, pageSize, q: search })).data
        : await client.organizations.listAll(search);
    this.print(orgs, () => (orgs.length === 0 ? 'No organizations.' : organizationTable(orgs)));
  }
}
