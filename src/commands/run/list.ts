import { Args, Flags } from '../../cli/oclif.js';
import { usageError } from '../../cli/common/prompts.js';
import { RUN_STATUSES } from '../../domain/runs/run.js';
import { RUN_OPERATIONS } from '../../domain/runs/run-list-filters.js';
import { BerthCommand } from '../../cli/base-command.js';
import { listFromFlags, pagingFlags } from '../../cli/flags/paging.js';
import { parseWorkspaceArg } from '../../cli/workspaces/resolve-workspace.js';
import { phasesOf, runTable } from '../../cli/views/run.js';
import type { ListAllOptions, PageOptions } from '../../client/client.js';
import type { ListResult, Resource } from '../../client/jsonapi.js';
import type { RunAttributes } from '../../client/resources.js';
import { RunsClient, type RunListFilter } from '../../client/runs.js';
import { WorkspaceStateClient } from '../../client/state.js';

/** A comma-separated flag's values, each one of `known`, else a usage error naming them. */
function valuesOf(flag: string, raw: string | undefined, known: readonly string[], what: [string, string]): string[] {
  if (raw === undefined) return [];
  const values = raw.split(',').map((s) => s.trim());
  const unknown = values.filter((v) => v !== '' && !known.includes(v));
  // A value that can match nothing is a mistake, not an empty list.
  if (unknown.length > 0 || values.includes(''))
    throw usageError(
      `--${flag}: ${unknown.length > 0 ? `unknown ${what[0]} ${unknown.join(', ')}` : `give at least one ${what[0]}`}; the ${what[1]} are ${known.join(', ')}`,
    );
  return values;
}

export default class RunList extends BerthCommand<typeof RunList> {
  static override summary = 'List the runs of a workspace, or of every workspace of an organization, newest first.';
  static override description =
    'Lists every run (all pages, with progress on a terminal) unless --limit, --page or --page-size is given. Runs berth executed show their resource changes (+added ~changed -destroyed) and whether they await confirmation. Without a WORKSPACE, lists the runs of every workspace of the organization (--org, BERTH_ORG or the profile) that you may read, with their workspace.';
  static override examples = [
    '<%= config.bin %> run list app-prod --org acme',
    '<%= config.bin %> run list acme/app-prod --limit 5 --json',
    '<%= config.bin %> run list acme/app-prod --page 2 --page-size 20',
    '<%= config.bin %> run list acme/app-prod --status planned,policy_checked --json',
    '<%= config.bin %> run list acme/app-prod --operation destroy',
    '<%= config.bin %> run list --org acme --status errored --limit 20',
  ];
  static override args = {
    workspace: Args.string({
      description: 'ws- id, NAME (with --org) or ORG/NAME; leave out for every workspace of --org',
      required: false,
    }),
  };
  static override flags = {
    ...pagingFlags,
    status: Flags.string({ description: 'only runs in these statuses, comma-separated, e.g. planned,errored' }),
    operation: Flags.string({
      description: `only runs of these operations, comma-separated: ${RUN_OPERATIONS.join(', ')}`,
    }),
  };

  async run(): Promise<void> {
    const filter: RunListFilter = {
      statuses: valuesOf('status', this.flags.status, RUN_STATUSES, ['status', 'statuses']),
      operations: valuesOf('operation', this.flags.operation, RUN_OPERATIONS, ['operation', 'operations']),
    };
    const client = new RunsClient(await this.client());
    const included: Resource[] = [];
    const fetchWith = (
      all: (options: ListAllOptions) => Promise<{ data: Resource<RunAttributes>[]; included: Resource[] }>,
      page: (page: PageOptions) => Promise<ListResult<RunAttributes>>,
    ) =>
      listFromFlags(
        this.flags,
        {
          all: async (options) => {
            const { data, included: more } = await all(options);
            included.push(...more);
            return data;
          },
          page: async (p) => {
            const result = await page(p);
            included.push(...(result.included ?? []));
            return result;
          },
        },
        this.jsonMode ? undefined : (m) => this.note(m),
      );

    if (this.args.workspace === undefined) {
      const org = this.flags.org;
      if (!org)
        throw usageError(
          'give a WORKSPACE, or an organization (--org NAME, BERTH_ORG or `berth config set org NAME`) to list the runs of all its workspaces',
        );
      const runs = await fetchWith(
        (options) => client.listAllOrganizationRuns(org, options, filter),
        (page) => client.listOrganizationRuns(org, page, filter),
      );
      // People read workspaces by name: the list sideloads them.
      const names = new Map(
        included.filter((r) => r.type === 'workspaces').map((w) => [w.id, String(w.attributes.name)]),
      );
      this.print(runs, () => (runs.length === 0 ? `No runs in ${org}.` : runTable(runs, phasesOf(included), names)));
      return;
    }
    const state = new WorkspaceStateClient(await this.client());
    const id = await state.workspaceId(parseWorkspaceArg(this.args.workspace, this.flags.org));
    // The plans and applies of executed runs come along (their resource counts).
    const runs = await fetchWith(
      (options) => client.listAllRuns(id, options, filter),
      (page) => client.listRuns(id, page, filter),
    );
    this.print(runs, () => (runs.length === 0 ? 'No runs.' : runTable(runs, phasesOf(included))));
  }
}
