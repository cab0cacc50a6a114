import { Args } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { parseWorkspaceArg } from '../../cli/workspaces/resolve-workspace.js';
import { setVariable, variableFlags } from '../../cli/variables/variable-flags.js';
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
    const client = await this.client();
    const ws = await new WorkspacesClient(client).get(parseWorkspaceArg(this.args.workspace, this.flags.org));
    const where = `workspace ${String(ws.data.attributes.name)}`;
    const done = await setVariable(workspaceVariables(client, ws.data.id), this.args.key, this.flags, where);
    this.print(done.result, () => done.sentence);
  }
}
