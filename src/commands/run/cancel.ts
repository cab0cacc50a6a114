import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { actOnRun } from '../../cli/views/run-action.js';
import { RunsClient } from '../../client/runs.js';

export default class RunCancel extends BerthCommand<typeof RunCancel> {
  static override summary = 'Cancel a queued or running run (--force: stop it at once after a cancel).';
  static override description =
    'A run that has not started is canceled at once; a running one is interrupted (terraform gets SIGINT and ends the phase), which can take a while. --force, allowed only after a cancel, ends the run at once.';
  static override examples = [
    '<%= config.bin %> run cancel run-CZcmD7eagjhyX0vN',
    '<%= config.bin %> run cancel run-CZcmD7eagjhyX0vN --force',
  ];
  static override args = { run: Args.string({ description: 'run id (run-...)', required: true }) };
  static override flags = {
    force: Flags.boolean({ description: 'force-cancel (after a cancel)', default: false }),
    comment: Flags.string({ description: 'why it is canceled' }),
  };

  async run(): Promise<void> {
    const runs = new RunsClient(await this.client());
    await actOnRun(runs, this.args.run, this.flags.force ? 'force-cancel' : 'cancel', this.flags.comment);
    const run = (await runs.getRun(this.args.run)).data;
    const asked = run.attributes.status === 'canceled' || run.attributes.status === 'force_canceled';
    this.print(run, () =>
      asked
        ? `Canceled run ${run.id}: ${run.attributes.status}.`
        : `Asked run ${run.id} to cancel: it is ${run.attributes.status} until terraform stops (berth run cancel ${run.id} --force ends it at once).`,
    );
  }
}
