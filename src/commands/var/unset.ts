import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { parseWorkspaceArg } from '../../cli/workspaces/resolve-workspace.js';
import { categoryFlag, categoryName, categoryOf } from '../../cli/variables/variable-flags.js';
import { workspaceVariables } from '../../client/variables.js';
import { WorkspacesClient } from '../../client/workspaces.js';

export default class VarUnset extends BerthCommand<typeof VarUnset> {
  static override summary = 'Delete a variable of a workspace.';
  static override examples = [
    '<%= config.bin %> var unset app-prod region --org acme',
    '<%= config.bin %> var unset acme/app-prod API_TOKEN --env',
  ];
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
    key: Args.string({ description: 'the variable name', required: true }),
  };
  static override flags = {
    ...categoryFlag,
    'dry-run': Flags.boolean({ description: 'say what would change, change nothing', default: false }),
  };

  async run(): Promise<void> {
    const category = categoryOf(this.flags);
    const client = await this.client();
    const ws = await new WorkspacesClient(client).get(parseWorkspaceArg(this.args.workspace, this.flags.org));
    const name = String(ws.data.attributes.name);
    const vars = workspaceVariables(client, ws.data.id);
    if (this.flags['dry-run']) {
      const found = await vars.find(this.args.key, category);
      this.print(
        { dryRun: true, action: found ? 'delete' : 'none', key: this.args.key, category, workspace: name },
        () =>
          found
            ? `Dry run (nothing changes): would delete ${categoryName(category)} ${this.args.key} from workspace ${name}.`
            : `Dry run: workspace ${name} has no ${categoryName(category)} ${this.args.key}.`,
      );
      return;
    }
    const gone = await vars.unset(this.args.key, category, `workspace ${name}`);
    this.print(gone, () => `Deleted ${categoryName(category)} ${this.args.key} from workspace ${name}.`);
  }
}
