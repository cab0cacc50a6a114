import { Args } from '../../../cli/oclif.js';
import { BerthCommand } from '../../../cli/base-command.js';
import { parseWorkspaceArg } from '../../../cli/workspaces/resolve-workspace.js';
import { SshKeysClient } from '../../../client/relations.js';

export default class WorkspaceSshKeyAssign extends BerthCommand<typeof WorkspaceSshKeyAssign> {
  static override summary = 'Assign an SSH key of the organization to a workspace.';
  static override examples = ['<%= config.bin %> workspace ssh-key assign app-prod deploy --org acme'];
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
    key: Args.string({ description: 'sshkey- id, or a key name in the workspace organization', required: true }),
  };

  async run(): Promise<void> {
    const ref = parseWorkspaceArg(this.args.workspace, this.flags.org);
    const keys = new SshKeysClient(await this.client());
    const keyId = await keys.resolve('organization' in ref ? ref.organization : this.flags.org, this.args.key);
    const ws = await keys.assign(ref, keyId);
    // The key as the caller named it (its name, or the id they gave).
    this.print(ws, () => `Workspace ${ws.attributes.name} now uses SSH key ${this.args.key}.`);
  }
}
