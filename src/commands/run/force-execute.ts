import { Args } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { statusText } from '../../cli/views/run.js';
import { RunsClient } from '../../client/runs.js';

export default class RunForceExecute extends BerthCommand<typeof RunForceExecute> {
  static override summary =
    'Plan a pending run now: discard the run that holds its workspace and every run ahead of it.';
  static override description =
    'HCP Terraform\'s "Run this plan now". The run must be pending, waiting for another run of its workspace, and ' +
    'that run must await confirmation (it is discarded; a run planning or applying must be canceled instead). A ' +
    "workspace locked by a person is theirs to unlock: force-execute discards runs, never someone's lock. Needs " +
    'permission to apply runs of the workspace.';
  static override examples = [
    '<%= config.bin %> run force-execute run-CZcmD7eagjhyX0vN',
    '<%= config.bin %> run force-execute run-CZcmD7eagjhyX0vN --json',
  ];
  static override args = { run: Args.string({ description: 'run id (run-...) of a pending run', required: true }) };

  async run(): Promise<void> {
    const runs = new RunsClient(await this.client());
    await runs.forceExecute(this.args.run);
    const run = (await runs.getRun(this.args.run)).data;
    this.print(
      run,
      () => `Force-executed run ${run.id}: ${statusText(run)}; the runs ahead of it in its workspace were discarded.`,
    );
  }
}
