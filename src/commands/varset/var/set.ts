import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { setVariable, variableFlags } from '../../../cli/variables/variable-flags.js';
import { VarsetsClient, varsetVariables } from '../../../client/variables.js';

export default class VarsetVarSet extends BerthCommand<typeof VarsetVarSet> {
  static override summary = 'Create or update a variable of a variable set.';
  static override description =
    'As `berth var set`, for a variable set: the value comes from --value or --value-file (- reads stdin), and is never printed.';
  static override examples = [
    'printf %s "$AWS_SECRET_ACCESS_KEY" | <%= config.bin %> varset var set aws-creds AWS_SECRET_ACCESS_KEY --env --sensitive --value-file - --org acme',
    '<%= config.bin %> varset var set defaults region --value eu-west-1 --org acme',
  ];
  static override args = {
    set: Args.string({ description: 'NAME (with --org) or varset- id', required: true }),
    key: Args.string({ description: 'the variable name', required: true }),
  };
  static override flags = { ...variableFlags };

  async run(): Promise<void> {
    const client = await this.client();
    const id = await new VarsetsClient(client).resolve(this.flags.org, this.args.set);
    const where = `variable set ${this.args.set}`;
    const done = await setVariable(varsetVariables(client, id), this.args.key, this.flags, where);
    this.print(done.result, () => done.sentence);
  }
}
