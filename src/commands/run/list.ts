import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { parseWorkspaceArg } from '../../cli/resolve-workspace.js';
import { runTable } from '../../cli/views/run.js';
import { WorkspaceStateClient } from '../../client/state.js';

export default class RunList extends BerthCommand<typeof RunList> {
  static override summary = 'List the runs of a workspace, newest first.';
  static override examples = [
    '<%= config.bin %> run list app-prod --org acme',
    '<%= config.bin %> run list acme/app-prod --page-size 5 --json',
  ];
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
  };
  static override flags = {
    page: Flags.integer({ description: 'page number', min: 1 }),
    'page-size': Flags.integer({ description: 'runs per page (1 to 100, default 20)', min: 1, max: 100 }),
  };

  async run(): Promise<void> {
    const state = new WorkspaceStateClient(await this.client());
    const id = await state.workspaceId(parseWorkspaceArg(this.args.workspace, this.flags.org));
    const { data } = await state.listRuns(id, { page: this.flags.page, pageSize: this.flags['page-size'] });
    this.print(data, () => (data.length === 0 ? 'No runs.' : runTable(data)));
  }
}
