import { Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { listFromFlags, pagingFlags } from '../../cli/flags/paging.js';
import { parseTagFilter } from '../../cli/projects/tag-args.js';
import { projectTable } from '../../cli/views/project.js';
import {
  listAllProjects,
  listProjects,
  type ProjectListOptions,
  type ProjectPermission,
} from '../../client/projects.js';

export default class ProjectList extends BerthCommand<typeof ProjectList> {
  static override summary = 'List the projects of an organization.';
  static override description =
    'Lists every project (all pages, with progress on a terminal) unless --limit, --page or --page-size is given; --json prints them all as an array.';
  static override examples = [
    '<%= config.bin %> project list --org acme',
    '<%= config.bin %> project list --org acme --search web --sort name',
    '<%= config.bin %> project list --org acme --tag env=prod --tag team --can update --json',
    '<%= config.bin %> project list --org acme --limit 5',
  ];
  static override flags = {
    search: Flags.string({ description: 'names containing this text (case-insensitive)' }),
    names: Flags.string({ description: 'comma-separated exact names (case-insensitive); wins over --search' }),
    can: Flags.string({
      description: 'only projects where you may do this',
      options: ['create-workspace', 'update'],
      multiple: true,
      multipleNonGreedy: true,
    }),
    tag: Flags.string({
      description: 'KEY (any value) or KEY=VALUE; repeat to require several',
      multiple: true,
      multipleNonGreedy: true,
    }),
    sort: Flags.string({ description: 'order by name; default is creation order', options: ['name', '-name'] }),
    ...pagingFlags,
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
    const list = await listFromFlags(
      f,
      {
        all: (paging) => listAllProjects(client, org, options, paging),
        page: (page) => listProjects(client, org, options, page),
      },
      this.jsonMode ? undefined : (m) => this.note(m),
    );
    this.print(list, () => (list.length === 0 ? 'No projects.' : projectTable(list)));
  }
}
