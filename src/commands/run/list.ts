import { Args, Flags } from '../../cli/oclif.js';
import { usageError } from '../../cli/common/prompts.js';
import { isRunStatus, RUN_STATUSES } from '../../domain/runs/run.js';
import { BerthCommand } from '../../cli/base-command.js';
import { listFromFlags, pagingFlags } from '../../cli/flags/paging.js';
import { parseWorkspaceArg } from '../../cli/workspaces/resolve-workspace.js';
import { phasesOf, runTable } from '../../cli/views/run.js';
import type { Resource } from '../../client/jsonapi.js';
import { RunsClient } from '../../client/runs.js';
import { WorkspaceStateClient } from '../../client/state.js';

export default class RunList extends BerthCommand<typeof RunList> {
  static override summary = 'List the runs of a workspace (recorded or executed), newest first.';
  static override description =
    'Lists every run (all pages, with progress on a terminal) unless --limit, --page or --page-size is given. Runs berth executed show their resource changes (+added ~changed -destroyed) and whether they await confirmation.';
  static override examples = [
    '<%= config.bin %> run list app-prod --org acme',
    '<%= config.bin %> run list acme/app-prod --limit 5 --json',
    '<%= config.bin %> run list acme/app-prod --page 2 --page-size 20',
    '<%= config.bin %> run list acme/app-prod --status planned,policy_checked --json',
  ];
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
  };
  static override flags = {
    ...pagingFlags,
    status: Flags.string({ description: 'only runs in these statuses, comma-separated, e.g. planned,errored' }),
  };

  async run(): Promise<void> {
    // A status that can match nothing is a mistake, not an empty list.
    const statuses = this.flags.status?.split(',').map((s) => s.trim()) ?? [];
    const unknown = statuses.filter((s) => !isRunStatus(s));
    if (this.flags.status !== undefined && (statuses.length === 0 || unknown.length > 0))
      throw usageError(
        `--status: ${unknown.length > 0 ? `unknown status ${unknown.join(', ')}` : 'give at least one status'}; the statuses are ${RUN_STATUSES.join(', ')}`,
      );
    const state = new WorkspaceStateClient(await this.client());
    const id = await state.workspaceId(parseWorkspaceArg(this.args.workspace, this.flags.org));
    // The plans and applies of executed runs come along (their resource counts).
    const included: Resource[] = [];
    const client = new RunsClient(await this.client());
    const runs = await listFromFlags(
      this.flags,
      {
        all: async (options) => {
          const { data, included: more } = await client.listAllRuns(id, options, statuses);
          included.push(...more);
          return data;
        },
        page: async (page) => {
          const result = await client.listRuns(id, page, statuses);
          included.push(...(result.included ?? []));
          return result;
        },
      },
      this.jsonMode ? undefined : (m) => this.note(m),
    );
    this.print(runs, () => (runs.length === 0 ? 'No runs.' : runTable(runs, phasesOf(included))));
  }
}
