import { Args } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { usageError } from '../../cli/prompts.js';
import { parseWorkspaceArg } from '../../cli/resolve-workspace.js';
import { categoryName, categoryOf, readValue, variableFlags } from '../../cli/variable-flags.js';
import { workspaceVariables } from '../../client/variables.js';
import { WorkspacesClient } from '../../client/workspaces.js';

export default class VarSet extends BerthCommand<typeof VarSet> {
  static override summary = 'Create or update a variable of a workspace.';
  static override description =
    'Creates the variable, or updates the one with the same key and category. The value comes from --value or --value-file (- reads stdin: the way for secrets). berth never prints the value; with --sensitive the API never returns it again, and run logs hide it.';
  static override examples = [
    '<%= config.bin %> var set app-prod region --value eu-west-1 --org acme',
    '<%= config.bin %> var set app-prod instance_types --value \'["t3.small","t3.large"]\' --hcl --org acme',
    'printf %s "$TOKEN" | <%= config.bin %> var set acme/app-prod API_TOKEN --env --sensitive --value-file -',
    '<%= config.bin %> var set app-prod region --description "where it runs" --org acme',
  ];
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
    key: Args.string({ description: 'the variable name', required: true }),
  };
  static override flags = { ...variableFlags };

  async run(): Promise<void> {
    const category = categoryOf(this.flags);
    const value = readValue(this.flags);
    const client = await this.client();
    const ws = await new WorkspacesClient(client).get(parseWorkspaceArg(this.args.workspace, this.flags.org));
    const name = String(ws.data.attributes.name);
    const vars = workspaceVariables(client, ws.data.id);
    const input = {
      key: this.args.key,
      category,
      value,
      description: this.flags.description,
      hcl: this.flags.hcl,
      sensitive: this.flags.sensitive || undefined,
    };
    if (this.flags['dry-run']) {
      const existing = await vars.find(this.args.key, category);
      if (!existing && value === undefined)
        throw usageError(`${this.args.key} is a new variable: give its value with --value or --value-file`);
      const verb = existing ? 'update' : 'create';
      this.print(
        { dryRun: true, action: verb, key: this.args.key, category, workspace: name },
        () =>
          `Dry run (nothing changes): would ${verb} ${categoryName(category)} ${this.args.key} in workspace ${name}.`,
      );
      return;
    }
    if (value === undefined && (await vars.find(this.args.key, category)) === undefined)
      throw usageError(`${this.args.key} is a new variable: give its value with --value or --value-file`);
    const { variable, created } = await vars.set(input);
    this.print(
      variable,
      () =>
        `${created ? 'Created' : 'Updated'} ${categoryName(category)} ${variable.attributes.key} in workspace ${name}${variable.attributes.sensitive ? ' (sensitive)' : ''}.`,
    );
  }
}
