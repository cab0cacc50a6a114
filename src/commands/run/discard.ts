import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { actOnRun } from '../../cli/views/run-action.js';
import { RunsClient } from '../../client/runs.js';

export default class RunDiscard extends BerthCommand<typeof RunDiscard> {
  static override summary = 'Discard a run that awaits confirmation: its plan is not applied.';
  static override examples = ['<%= config.bin %> run discard run-CZcmD7eagjhyX0vN'];
  static override args = { run: Args.string({ description: 'run id (run-...)', required: true }) };
  static override flags = { comment: Flags.string({ description: 'why it is discarded' }) };

  async run(): Promise<void> {
    const runs = new RunsClient(await this.client());
    await actOnRun(runs, this.args.run, 'discard', this.flags.comment);
    const run = (await runs.getRun(this.args.run)).data;
    this.print(run, () => `Discarded run ${run.id}: ${run.attributes.status}.`);
  }
}
