import { Args, Flags } from '@oclif/core';
import { BerthCommand } from '../../cli/base-command.js';
import { explainLockConflict } from '../../cli/lock-conflict.js';
import { parseWorkspaceArg } from '../../cli/resolve-workspace.js';
import { WorkspaceStateClient } from '../../client/state.js';

export default class WorkspaceLock extends BerthCommand<typeof WorkspaceLock> {
  static override summary = 'Lock a workspace so that no run or state change happens until it is unlocked.';
  static override description = 'Exits 8 when someone else holds the lock, and says who, since when and why.';
  static override examples = [
    '<%= config.bin %> workspace lock app-prod --org acme --reason "database migration"',
    '<%= config.bin %> workspace lock acme/app-prod --json',
  ];
  static override args = { workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }) };
  static override flags = { reason: Flags.string({ description: 'why it is locked (shown to others)' }) };

  async run(): Promise<void> {
    const client = await this.client();
    const state = new WorkspaceStateClient(client);
    const id = await state.workspaceId(parseWorkspaceArg(this.args.workspace, this.flags.org));
    const ws = await state.lock(id, this.flags.reason).catch((err) => explainLockConflict(err, client, id));
    this.print(ws, () => `Locked workspace ${ws.attributes.name}${this.flags.reason ? ` (${this.flags.reason})` : ''}.`);
  }
}
