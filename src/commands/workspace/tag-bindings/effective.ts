import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { inheritedFromNames } from '../../../cli/output/related-names.js';
import { limited, limitFlag } from '../../../cli/flags/paging.js';
import { parseWorkspaceArg } from '../../../cli/workspaces/resolve-workspace.js';
import { effectiveBindingTable } from '../../../cli/views/relations.js';
import { WorkspaceRelationsClient } from '../../../client/relations.js';

export default class WorkspaceTagBindingsEffective extends BerthCommand<typeof WorkspaceTagBindingsEffective> {
  static override summary =
    "List a workspace's effective key-value tags: its own plus those inherited from its project.";
  static override description =
    "Inherited rows name their project. A key set on both shows once, with the workspace's value.";
  static override examples = ['<%= config.bin %> workspace tag-bindings effective app-prod --org acme'];
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
  };

  static override flags = { ...limitFlag };

  async run(): Promise<void> {
    const client = await this.client();
    const tags = limited(
      await new WorkspaceRelationsClient(client).effectiveTagBindings(
        parseWorkspaceArg(this.args.workspace, this.flags.org),
      ),
      this.flags.limit,
      (shown, total) => this.limitNote(shown, total),
    );
    const names = this.jsonMode ? new Map<string, string>() : await inheritedFromNames(client, tags);
    this.print(tags, () => (tags.length === 0 ? 'No tags.' : effectiveBindingTable(tags, names)));
  }
}
