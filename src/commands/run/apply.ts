import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { statusText } from '../../cli/views/run.js';
import { actOnRun } from '../../cli/views/run-action.js';
import { RunsClient } from '../../client/runs.js';

export default class RunApply extends BerthCommand<typeof RunApply> {
  static override summary = 'Apply a run that awaits confirmation (its plan has finished).';
  static override examples = [
    '<%= config.bin %> run apply run-CZcmD7eagjhyX0vN',
    '<%= config.bin %> run apply run-CZcmD7eagjhyX0vN --comment "reviewed the plan"',
  ];
  static override args = { run: Args.string({ description: 'run id (run-...)', required: true }) };
  static override flags = { comment: Flags.string({ description: 'why it is applied' }) };

  async run(): Promise<void> {
    const runs = new RunsClient(await this.client());
    await actOnRun(runs, this.args.run, 'apply', this.flags.comment);
    const run = (await runs.getRun(this.args.run)).data;
    this.print(run, () => `Confirmed run ${run.id}: ${statusText(run)}.`);
  }
}
