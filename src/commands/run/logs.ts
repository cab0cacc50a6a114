import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { printLog } from '../../client/run-log.js';
import { RunsClient } from '../../client/runs.js';
import { isExecutedRun } from '../../cli/views/run.js';
import { BerthError } from '../../domain/common/errors.js';

export default class RunLogs extends BerthCommand<typeof RunLogs> {
  static override summary = "Print the log of an executed run's plan or apply.";
  static override description =
    'Prints what terraform wrote so far; with --follow, keeps printing as the log grows until the phase ends (or the run does).';
  static override examples = [
    '<%= config.bin %> run logs run-CZcmD7eagjhyX0vN',
    '<%= config.bin %> run logs run-CZcmD7eagjhyX0vN --phase apply --follow',
  ];
  static override args = { run: Args.string({ description: 'run id (run-...)', required: true }) };
  static override flags = {
    phase: Flags.string({ description: 'which log', options: ['plan', 'apply'], default: 'plan' }),
    follow: Flags.boolean({ description: 'wait for more until the phase ends', default: false }),
  };

  async run(): Promise<void> {
    const runs = new RunsClient(await this.client());
    const run = (await runs.getRun(this.args.run)).data;
    if (!isExecutedRun(run))
      throw new BerthError([
        {
          status: 404,
          title: 'not found',
          detail: `${run.id} is a recorded run (executed elsewhere): berth has no log of it`,
        },
      ]);
    await printLog(
      runs,
      this.args.run,
      this.flags.phase as 'plan' | 'apply',
      (t) => process.stdout.write(t),
      this.flags.follow,
    );
  }
}
