import { Args } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { limitFlag } from '../../cli/flags/paging.js';
import { parseWorkspaceArg } from '../../cli/workspaces/resolve-workspace.js';
import { stateVersionTable } from '../../cli/views/state.js';
import { WorkspaceStateClient } from '../../client/state.js';

export default class StateList extends BerthCommand<typeof StateList> {
  static override summary = 'List the state versions of a workspace, newest first.';
  static override examples = [
    '<%= config.bin %> state list app-prod --org acme',
    '<%= config.bin %> state list acme/app-prod --json',
  ];
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
  };

  static override flags = { ...limitFlag };

  async run(): Promise<void> {
    const state = new WorkspaceStateClient(await this.client());
    const id = await state.workspaceId(parseWorkspaceArg(this.args.workspace, this.flags.org));
    const versions = await state.listStateVersions(id, { limit: this.flags.limit });
    this.print(versions, () => (versions.length === 0 ? 'No state versions.' : stateVersionTable(versions)));
  }
}
