import { Flags } from '../../cli/oclif.js';
import { listFromFlags, pagingFlags } from '../../cli/flags/paging.js';
import { BerthCommand } from '../../cli/base-command.js';
import { projectNamesOf } from '../../cli/output/related-names.js';
import { workspaceTable } from '../../cli/views/workspace.js';
import { filtersFromFlags, workspaceFilterFlags } from '../../cli/workspaces/workspace-filters.js';
import { columnRequested } from '../../cli/output/output.js';
import type { Resource } from '../../client/jsonapi.js';
import type { WorkspaceAttributes } from '../../client/resources.js';
import { listQuery, WorkspacesClient, type WorkspaceListFilters } from '../../client/workspaces.js';

const SORTS = [
  'name',
  '-name',
  'current-run.created-at',
  '-current-run.created-at',
  'latest-change-at',
  '-latest-change-at',
  'locked-at',
  '-locked-at',
];

export default class WorkspaceList extends BerthCommand<typeof WorkspaceList> {
  static override summary = 'List the workspaces of an organization.';
  static override description =
    'Lists every workspace (all pages, with progress on a terminal) unless --limit, --page or --page-size is given; --json prints them all as an array. Filters combine with AND.';
  static override examples = [
    '<%= config.bin %> workspace list --org acme',
    '<%= config.bin %> workspace list --org acme --search prod --project Platform --sort -name',
    '<%= config.bin %> workspace list --org acme --wildcard "app-*" --tag env=prod --tag team',
    '<%= config.bin %> workspace list --org acme --tags linux,blue --exclude-tags legacy --run-status applied,errored',
    '<%= config.bin %> workspace list --org acme --locked --sort locked-at',
    '<%= config.bin %> workspace list --org acme --limit 10',
    '<%= config.bin %> workspace list --org acme --page 2 --page-size 50 --json',
  ];
  static override flags = {
    ...workspaceFilterFlags,
    sort: Flags.string({ description: 'sort order', options: SORTS }),
    ...pagingFlags,
  };

  async run(): Promise<void> {
    const org = this.requireOrg();
    const client = await this.client();
    const f = this.flags;
    // The names the optional columns show (lock holders, latest runs) come with the list itself.
    const names = this.jsonMode
      ? []
      : [
          ...(columnRequested('locked-by') ? ['locked_by'] : []),
          ...(columnRequested('latest-run') ? ['current_run'] : []),
        ];
    const filters: WorkspaceListFilters = {
      ...(await filtersFromFlags(client, org, f)),
      sort: f.sort,
      ...(names.length > 0 ? { include: names.join(',') } : {}),
    };
    const ws = new WorkspacesClient(client);
    const included: Resource[] = [];
    const list = await listFromFlags(
      f,
      {
        all: async (options) => {
          const pages = await client.listPages<WorkspaceAttributes>(
            `/organizations/${encodeURIComponent(org)}/workspaces`,
            listQuery(filters),
            options,
          );
          included.push(...pages.included);
          return pages.data;
        },
        page: async (page) => {
          const one = await ws.list(org, filters, page);
          included.push(...(one.included ?? []));
          return one;
        },
      },
      this.jsonMode ? undefined : (m) => this.note(m),
    );
    const projects = this.jsonMode ? new Map<string, string>() : await projectNamesOf(client, list);
    this.print(list, () => (list.length === 0 ? 'No workspaces.' : workspaceTable(list, projects, included)));
  }
}
