import { Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { parseTagFilter } from '../../cli/tag-args.js';
import { projectTable } from '../../cli/views/project.js';
import {
  listAllProjects,
  listProjects,
  type ProjectListOptions,
  type ProjectPermission,
} from '../../client/projects.js';

export default class ProjectList extends BerthCommand<typeof ProjectList> {
  static override summary = 'List the projects of an organization.';
  static override description = 'Shows one page (the first 20 by default); --all follows every page.';
  static override examples = [
    '<%= config.bin %> project list --org acme',
    '<%= config.bin %> project list --org acme --search web --sort name',
    '<%= config.bin %> project list --org acme --tag env=prod --tag team --can update --all --json',
  ];
  static override flags = {
    search: Flags.string({ description: 'names containing this text (case-insensitive)' }),
    names: Flags.string({ description: 'comma-separated exact names (case-insensitive); wins over --search' }),
    can: Flags.string({
      description: 'only projects where you may do this',
      options: ['create-workspace', 'update'],
      multiple: true,
    }),
    tag: Flags.string({ description: 'KEY (any value) or KEY=VALUE; repeat to require several', multiple: true }),
    sort: Flags.string({ description: 'order by name; default is creation order', options: ['name', '-name'] }),
    page: Flags.integer({ description: 'page number', min: 1, exclusive: ['all'] }),
    'page-size': Flags.integer({
      description: 'projects per page, 1 to 100 (default 20)',
      min: 1,
      max: 100,
      exclusive: ['all'],
    }),
    all: Flags.boolean({ description: 'list every page', default: false }),
  };

  async run(): Promise<void> {
    const org = this.requireOrg();
    const f = this.flags;
    const options: ProjectListOptions = {
      search: f.search,
      names: f.names
        ?.split(',')
        .map((n) => n.trim())
        .filter((n) => n !== ''),
      can: f.can as ProjectPermission[] | undefined,
      tags: f.tag?.map(parseTagFilter),
      sort: f.sort as ProjectListOptions['sort'],
    };
    const client = await this.client();
    if (f.all) {
      const all = await listAllProjects(client, org, options);
      return this.print(all, () => (all.length === 0 ? 'No projects.' : projectTable(all)));
    }
    const { data, pagination } = await listProjects(client, org, options, { page: f.page, pageSize: f['page-size'] });
    this.print(data, () => (data.length === 0 ? 'No projects.' : projectTable(data)));
    if (!this.jsonMode && pagination && pagination['total-pages'] > 1) {
      this.note(
        `Page ${pagination['current-page']} of ${pagination['total-pages']} (${pagination['total-count']} projects); use --page N or --all.`,
      );
    }
  }
}
