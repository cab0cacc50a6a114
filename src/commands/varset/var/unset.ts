import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { categoryFlag, categoryName, categoryOf } from '../../../cli/variables/variable-flags.js';
import { VarsetsClient, varsetVariables } from '../../../client/variables.js';

export default class VarsetVarUnset extends BerthCommand<typeof VarsetVarUnset> {
  static override summary = 'Delete a variable of a variable set.';
  static override examples = ['<%= config.bin %> varset var unset aws-creds AWS_SECRET_ACCESS_KEY --env --org acme'];
  static override args = {
    set: Args.string({ description: 'NAME (with --org) or varset- id', required: true }),
    key: Args.string({ description: 'the variable name', required: true }),
  };
  static override flags = { ...categoryFlag };

  async run(): Promise<void> {
    const category = categoryOf(this.flags);
    const client = await this.client();
    const id = await new VarsetsClient(client).resolve(this.flags.org, this.args.set);
    const gone = await varsetVariables(client, id).unset(this.args.key, category, `variable set ${this.args.set}`);
    this.print(gone, () => `Deleted ${categoryName(category)} ${this.args.key} from variable set ${this.args.set}.`);
  }
}
