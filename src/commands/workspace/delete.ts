import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { confirmByTyping, confirmDestructive } from '../../cli/common/prompts.js';
import { refuseUnlessPermitted } from '../../cli/common/refusals.js';
import { parseWorkspaceArg } from '../../cli/workspaces/resolve-workspace.js';
import { WorkspacesClient } from '../../client/workspaces.js';

export default class WorkspaceDelete extends BerthCommand<typeof WorkspaceDelete> {
  static override summary = 'Delete a workspace (safe delete unless --force).';
  static override description =
    'Safe delete refuses (exit 4) while the workspace is locked or still manages resources. --force deletes regardless (owners; workspace admins when the organization allows it). Asks to confirm on a terminal (for --force, by typing the name back); elsewhere it needs --yes.';
  static override examples = [
    '<%= config.bin %> workspace delete app-dev --org acme',
    '<%= config.bin %> workspace delete acme/app-dev --yes',
    '<%= config.bin %> workspace delete ws-6jrRyVDv1J8zQMB5 --force --yes',
  ];
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
  };
  static override flags = {
    force: Flags.boolean({ description: 'force delete: no check for managed resources', default: false }),
    yes: Flags.boolean({ char: 'y', description: 'do not ask for confirmation', default: false }),
  };

  async run(): Promise<void> {
    const ws = new WorkspacesClient(await this.client());
    const { data } = await ws.get(parseWorkspaceArg(this.args.workspace, this.flags.org));
    const ref = { id: data.id };
    const name = data.attributes.name;
    // Refused before the confirmation, with the API's own answer (force: 403, exit 6; safe: 404, exit 3).
    if (this.flags.force)
      refuseUnlessPermitted(data, 'can-force-delete', { status: 403, action: `force delete workspace ${name}` });
    else refuseUnlessPermitted(data, 'can-destroy', { status: 404, action: `delete workspace ${name}` });
    if (this.flags.force)
      await confirmByTyping(
        `force delete workspace ${name} (${data.id}) and everything in it, managed resources or not`,
        name,
        this.flags,
      );
    else await confirmDestructive(`delete workspace ${name} (${data.id})`, this.flags);
    if (this.flags.force) await ws.forceDelete(ref);
    else await ws.safeDelete(ref);
    this.print(
      { id: data.id, type: 'workspaces', deleted: true, force: this.flags.force },
      () => `Deleted workspace ${name} (${data.id}).`,
    );
  }
}
