import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { usageError } from '../../../cli/prompts.js';
import { categoryName, categoryOf, readValue, variableFlags } from '../../../cli/variable-flags.js';
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
    const category = categoryOf(this.flags);
    const value = readValue(this.flags);
    const client = await this.client();
    const id = await new VarsetsClient(client).resolve(this.flags.org, this.args.set);
    const vars = varsetVariables(client, id);
    const existing = await vars.find(this.args.key, category);
    if (!existing && value === undefined)
      throw usageError(`${this.args.key} is a new variable: give its value with --value or --value-file`);
    if (this.flags['dry-run']) {
      const verb = existing ? 'update' : 'create';
      this.print(
        { dryRun: true, action: verb, key: this.args.key, category, set: this.args.set },
        () =>
          `Dry run (nothing changes): would ${verb} ${categoryName(category)} ${this.args.key} in variable set ${this.args.set}.`,
      );
      return;
    }
    const { variable, created } = await vars.set({
      key: this.args.key,
      category,
      value,
      description: this.flags.description,
      hcl: this.flags.hcl,
      sensitive: this.flags.sensitive || undefined,
    });
    this.print(
      variable,
      () =>
        `${created ? 'Created' : 'Updated'} ${categoryName(category)} ${variable.attributes.key} in variable set ${this.args.set}${variable.attributes.sensitive ? ' (sensitive)' : ''}.`,
    );
  }
}
