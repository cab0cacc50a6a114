import { Args } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { isExecutedRun, runFields } from '../../cli/views/run.js';
import { RunsClient } from '../../client/runs.js';
import { WorkspaceStateClient } from '../../client/state.js';
import { WorkspacesClient } from '../../client/workspaces.js';

export default class RunShow extends BerthCommand<typeof RunShow> {
  static override summary = 'Show a run: recorded, or executed by berth (its plan, apply and actions).';
  static override examples = [
    '<%= config.bin %> run show run-CZcmD7eagjhyX0vN',
    '<%= config.bin %> run show run-CZcmD7eagjhyX0vN --json',
  ];
  static override args = { run: Args.string({ description: 'run id (run-...)', required: true }) };

  async run(): Promise<void> {
    const client = await this.client();
    const { data } = await new WorkspaceStateClient(client).getRun(this.args.run);
    const ws = data.relationships?.workspace?.data;
    // A person reads the workspace's name: one more read (runs have no workspace include).
    const name =
      this.jsonMode || !ws || Array.isArray(ws)
        ? undefined
        : String((await new WorkspacesClient(client).get({ id: ws.id })).data.attributes.name);
    // An executed run: its plan and apply (status, resource counts).
    const runs = new RunsClient(client);
    const phases =
      this.jsonMode || !isExecutedRun(data)
        ? undefined
        : { plan: await runs.phase(data.id, 'plan'), apply: await runs.phase(data.id, 'apply') };
    this.print(data, () => runFields(data, name, phases));
  }
}
