import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { confirmDestructive } from '../../cli/common/prompts.js';
import { VarsetsClient } from '../../client/variables.js';

export default class VarsetDelete extends BerthCommand<typeof VarsetDelete> {
  static override summary = 'Delete a variable set and its variables.';
  static override description =
    'The workspaces and projects it applied to keep their own variables; their next runs no longer receive the set.';
  static override examples = [
    '<%= config.bin %> varset delete aws-creds --org acme',
    '<%= config.bin %> varset delete aws-creds --org acme --yes',
  ];
  static override args = { set: Args.string({ description: 'NAME (with --org) or varset- id', required: true }) };
  static override flags = { yes: Flags.boolean({ char: 'y', description: 'do not ask', default: false }) };

  async run(): Promise<void> {
    const sets = new VarsetsClient(await this.client());
    const id = await sets.resolve(this.flags.org, this.args.set);
    await confirmDestructive(`delete variable set ${this.args.set} and its variables`, this.flags);
    await sets.delete(id);
    this.print({ id, deleted: true }, () => `Deleted variable set ${this.args.set}.`);
  }
}
