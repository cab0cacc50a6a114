import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { limitFlag } from '../../cli/flags/paging.js';
import { parseWorkspaceArg } from '../../cli/workspaces/resolve-workspace.js';
import { stateOutputTable } from '../../cli/views/state.js';
import { WorkspaceStateClient } from '../../client/state.js';

export default class StateOutputs extends BerthCommand<typeof StateOutputs> {
  static override summary = 'Show the outputs of the workspace’s current state.';
  static override description =
    'Sensitive values are hidden unless --show-sensitive is given (each is then read on its own, which needs permission to read the state outputs).';
  static override examples = [
    '<%= config.bin %> state outputs app-prod --org acme',
    '<%= config.bin %> state outputs acme/app-prod --show-sensitive --json',
  ];
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
  };
  static override flags = {
    'show-sensitive': Flags.boolean({ description: 'read and show the values of sensitive outputs', default: false }),
    ...limitFlag,
  };

  async run(): Promise<void> {
    const state = new WorkspaceStateClient(await this.client());
    const id = await state.workspaceId(parseWorkspaceArg(this.args.workspace, this.flags.org));
    const outputs = await state.currentOutputs(id, { limit: this.flags.limit });
    if (this.flags['show-sensitive']) {
      for (const [i, o] of outputs.entries()) if (o.attributes.sensitive) outputs[i] = await state.output(o.id);
    }
    this.print(outputs, () => (outputs.length === 0 ? 'No outputs (or no state yet).' : stateOutputTable(outputs)));
  }
}
