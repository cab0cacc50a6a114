import { Args, Flags } from '@oclif/core';
import { BerthCommand } from '../../cli/base-command.js';
import { explainLockConflict } from '../../cli/lock-conflict.js';
import { parseWorkspaceArg } from '../../cli/resolve-workspace.js';
import { WorkspaceStateClient } from '../../client/state.js';

export default class WorkspaceUnlock extends BerthCommand<typeof WorkspaceUnlock> {
  static override summary = 'Unlock a workspace you locked (or, with --force, any lock; admins only).';
  static override description =
    'Exits 8 when someone else holds the lock, 4 when it is not locked, and 9 while the latest state upload is still pending (retry shortly).';
  static override examples = ['<%= config.bin %> workspace unlock app-prod --org acme', '<%= config.bin %> workspace unlock acme/app-prod --force'];
  static override args = { workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }) };
  static override flags = { force: Flags.boolean({ description: 'release a lock held by someone else (force-unlock)', default: false }) };

  async run(): Promise<void> {
    const client = await this.client();
    const state = new WorkspaceStateClient(client);
    const id = await state.workspaceId(parseWorkspaceArg(this.args.workspace, this.flags.org));
    const ws = await state.unlock(id, this.flags.force).catch((err) => explainLockConflict(err, client, id));
    this.print(ws, () => `${this.flags.force ? 'Force-unlocked' : 'Unlocked'} workspace ${ws.attributes.name}.`);
  }
}
