import { Args } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { limitFlag } from '../../cli/flags/paging.js';
import { parseWorkspaceArg } from '../../cli/resolve-workspace.js';
import { variableTable } from '../../cli/views/variable.js';
import { workspaceVariables } from '../../client/variables.js';
import { WorkspacesClient } from '../../client/workspaces.js';

export default class VarList extends BerthCommand<typeof VarList> {
  static override summary = "List a workspace's variables (sensitive values are never shown).";
  static override description =
    'Terraform and environment variables that runs of the workspace receive. Variables from variable sets are listed by `berth varset list --workspace`.';
  static override examples = [
    '<%= config.bin %> var list app-prod --org acme',
    '<%= config.bin %> var list acme/app-prod --json',
  ];
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
  };
  static override flags = { ...limitFlag };

  async run(): Promise<void> {
    const client = await this.client();
    const ws = await new WorkspacesClient(client).get(parseWorkspaceArg(this.args.workspace, this.flags.org));
    const vars = await workspaceVariables(client, ws.data.id).list({ limit: this.flags.limit });
    this.print(vars, () =>
      vars.length === 0 ? `No variables in workspace ${String(ws.data.attributes.name)}.` : variableTable(vars),
    );
  }
}
