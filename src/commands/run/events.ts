import { Args } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { historyOf, historyTable } from '../../cli/views/run-history.js';
import { RunHistoryClient } from '../../client/run-history.js';

export default class RunEvents extends BerthCommand<typeof RunEvents> {
  static override summary =
    "A run's history: each move (created, queued, planning, planned, confirmed, applied, ...), who made it, and its comment.";
  static override description =
    'Oldest first. BY is the user who acted (created, confirmed, discarded, canceled, commented); `-` is berth itself (its queue and executors), a token of no user, or a user since deleted. --json prints the run events as the API answers them (their `actor` and `comment` relationships name the user and the comment: `berth api /runs/RUN/run-events?include=actor,comment` includes them).';
  static override examples = [
    '<%= config.bin %> run events run-CZcmD7eagjhyX0vN',
    '<%= config.bin %> run events run-CZcmD7eagjhyX0vN --json',
  ];
  static override args = { run: Args.string({ description: 'run id (run-...)', required: true }) };

  async run(): Promise<void> {
    const { data, included } = await new RunHistoryClient(await this.client()).events(this.args.run);
    this.print(data, () => historyTable(historyOf(data, included)));
  }
}
