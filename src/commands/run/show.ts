import { Args } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { runFields } from '../../cli/views/run.js';
import { WorkspaceStateClient } from '../../client/state.js';

export default class RunShow extends BerthCommand<typeof RunShow> {
  static override summary = 'Show a run record.';
  static override examples = [
    '<%= config.bin %> run show run-CZcmD7eagjhyX0vN',
    '<%= config.bin %> run show run-CZcmD7eagjhyX0vN --json',
  ];
  static override args = { run: Args.string({ description: 'run id (run-...)', required: true }) };

  async run(): Promise<void> {
    const { data } = await new WorkspaceStateClient(await this.client()).getRun(this.args.run);
    this.print(data, () => runFields(data));
  }
}
