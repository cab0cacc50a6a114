import { readFileSync } from 'node:fs';
import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { usageError } from '../../cli/common/prompts.js';
import { RunHistoryClient } from '../../client/run-history.js';

export default class RunComment extends BerthCommand<typeof RunComment> {
  static override summary = 'Comment on a run (HCP Terraform comments: feedback, or why a decision was made).';
  static override description =
    'The text is the second argument, or comes from --file (- reads stdin). Anyone who may queue plans in the workspace may comment; the comment shows in `berth run show` and `berth run events`. A comment can also go with an action: `berth run apply|discard|cancel RUN --comment TEXT`.';
  static override examples = [
    '<%= config.bin %> run comment run-CZcmD7eagjhyX0vN "The plan replaces the database: waiting for the DBA"',
    '<%= config.bin %> run comment run-CZcmD7eagjhyX0vN --file review.md',
    'git log -1 --format=%B | <%= config.bin %> run comment run-CZcmD7eagjhyX0vN --file -',
    '<%= config.bin %> run comment run-CZcmD7eagjhyX0vN "ok" --json',
  ];
  static override args = {
    run: Args.string({ description: 'run id (run-...)', required: true }),
    text: Args.string({ description: 'the comment (or --file)', required: false }),
  };
  static override flags = {
    file: Flags.string({ description: 'file holding the comment, or - for stdin' }),
  };

  async run(): Promise<void> {
    const body = this.text();
    const { data } = await new RunHistoryClient(await this.client()).comment(this.args.run, body);
    this.print(data, () => `Commented on run ${this.args.run} (${data.id}).`);
  }

  /** The comment's text: the argument, or the file's (stdin's with -). */
  private text(): string {
    const file = this.flags.file;
    if (file !== undefined && this.args.text !== undefined) throw usageError('give the text or --file, not both');
    if (file === undefined) {
      if (this.args.text === undefined)
        throw usageError('give the comment as an argument, or --file PATH (- for stdin)');
      return this.args.text;
    }
    let text: string;
    try {
      text = readFileSync(file === '-' ? 0 : file, 'utf8');
    } catch (err) {
      throw usageError(`cannot read the comment from ${file}: ${(err as Error).message}`);
    }
    // A file's last line break is no part of the comment.
    text = text.replace(/\r?\n$/, '');
    if (text.trim() === '') throw usageError(`the comment in ${file === '-' ? 'stdin' : file} is empty`);
    return text;
  }
}
