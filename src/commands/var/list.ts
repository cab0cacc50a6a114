import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { limitFlag } from '../../cli/flags/paging.js';
import { parseWorkspaceArg } from '../../cli/workspaces/resolve-workspace.js';
import { effectiveVariableTable, variableTable } from '../../cli/views/variable.js';
import { VarsetsClient, workspaceAllVariables, workspaceVariables } from '../../client/variables.js';
import { WorkspacesClient } from '../../client/workspaces.js';

export default class VarList extends BerthCommand<typeof VarList> {
  static override summary = "List a workspace's variables (sensitive values are never shown).";
  static override description =
    "Terraform and environment variables of the workspace itself. With --effective: every variable its runs receive, its own and its variable sets' after precedence (one per key and category), and where each value comes from.";
  static override examples = [
    '<%= config.bin %> var list app-prod --org acme',
    '<%= config.bin %> var list acme/app-prod --json',
    '<%= config.bin %> var list app-prod --effective',
  ];
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
  };
  static override flags = {
    ...limitFlag,
    effective: Flags.boolean({
      description: "what runs receive: the workspace's variables and its variable sets', after precedence",
      default: false,
    }),
  };

  async run(): Promise<void> {
    const client = await this.client();
    const ws = await new WorkspacesClient(client).get(parseWorkspaceArg(this.args.workspace, this.flags.org));
    const name = String(ws.data.attributes.name);
    if (this.flags.effective) {
      const vars = await workspaceAllVariables(client, ws.data.id, { limit: this.flags.limit });
      const sets = await new VarsetsClient(client).listOf('workspaces', ws.data.id);
      const byId = new Map(sets.map((s) => [s.id, { name: s.attributes.name, priority: s.attributes.priority }]));
      this.print(vars, () =>
        vars.length === 0 ? `No variables apply to workspace ${name}.` : effectiveVariableTable(vars, byId),
      );
      return;
    }
    const vars = await workspaceVariables(client, ws.data.id).list({ limit: this.flags.limit });
    this.print(vars, () => (vars.length === 0 ? `No variables in workspace ${name}.` : variableTable(vars)));
  }
}
