import { Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { listFromFlags, pagingFlags } from '../../cli/flags/paging.js';
import { organizationTable } from '../../cli/views/organization.js';

export default class OrgList extends BerthCommand<typeof OrgList> {
  static override summary = 'List the organizations you can see.';
  static override description = 'Lists every organization (all pages) unless --limit, --page or --page-size is given.';
  static override examples = [
    '<%= config.bin %> org list',
    '<%= config.bin %> org list --search acme --json',
    '<%= config.bin %> org list --limit 5',
  ];
  static override flags = {
    search: Flags.string({ description: 'only names containing this text (case-insensitive)' }),
    ...pagingFlags,
  };

  async run(): Promise<void> {
    const client = await this.client();
    const search = this.flags.search;
    const orgs = await listFromFlags(
      this.flags,
      {
        all: (options) => client.organizations.listAll(search, options),
        page: (page) => client.organizations.list({ ...page, q: search }),
      },
      this.jsonMode ? undefined : (m) => this.note(m),
    );
    this.print(orgs, () => (orgs.length === 0 ? 'No organizations.' : organizationTable(orgs)));
  }
}
