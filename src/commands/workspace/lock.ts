import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { BulkNote, bulkFlags, bulkTable, matchingWorkspaces, runBulk } from '../../cli/workspaces/bulk.js';
import { explainLockConflict, isHeldByCaller } from '../../cli/workspaces/lock-conflict.js';
import { lockSince } from '../../cli/workspaces/lock-holder.js';
import { usageError } from '../../cli/common/prompts.js';
import { parseWorkspaceArg } from '../../cli/workspaces/resolve-workspace.js';
import type { WorkspaceAttributes } from '../../client/resources.js';
import { WorkspaceStateClient } from '../../client/state.js';

export default class WorkspaceLock extends BerthCommand<typeof WorkspaceLock> {
  static override summary =
    'Lock a workspace (or every workspace matching filters) so that no run or state change happens until it is unlocked.';
  static override description = `Exits 8 when someone else holds the lock, and says who, since when and why. Locking a workspace you already hold says so and exits 0 (the lock and its reason stay as they were).

With --all-matching and the filters of \`workspace list\`, locks every matching workspace: it previews them, asks to confirm on a terminal (or takes --yes), reports each result and exits non-zero if any failed. --dry-run previews and changes nothing.`;
  static override examples = [
    '<%= config.bin %> workspace lock app-prod --org acme --reason "database migration"',
    '<%= config.bin %> workspace lock acme/app-prod --json',
    '<%= config.bin %> workspace lock --all-matching --org acme --tag env=prod --dry-run',
    '<%= config.bin %> workspace lock --all-matching --org acme --tag env=prod --reason "freeze" --yes',
  ];
  static override args = { workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME' }) };
  static override flags = {
    reason: Flags.string({ description: 'why it is locked (shown to others)' }),
    ...bulkFlags('lock'),
  };

  async run(): Promise<void> {
    const client = await this.client();
    const state = new WorkspaceStateClient(client);
    if (this.flags['all-matching']) {
      const items = await matchingWorkspaces(client, this.requireOrg(), this.args.workspace, this.flags);
      // A workspace the caller already holds is reported as such, not as a failure.
      const { results, exitCode } = await runBulk(items, 'Locking', this.flags, (w) =>
        state.lock(w.id, this.flags.reason).catch((err) => {
          if (isHeldByCaller(err)) return new BulkNote('already held');
          return explainLockConflict(err, client, w.id);
        }),
      );
      this.print(results, () => bulkTable(results));
      if (exitCode !== 0) this.exit(exitCode);
      return;
    }
    if (!this.args.workspace) throw usageError('say which workspace to lock, or use --all-matching with filters');
    const id = await state.workspaceId(parseWorkspaceArg(this.args.workspace, this.flags.org));
    const ws = await state
      .lock(id, this.flags.reason)
      .catch((err) => (isHeldByCaller(err) ? null : explainLockConflict(err, client, id)));
    if (ws === null) {
      const held = await client.get<WorkspaceAttributes>(`/workspaces/${encodeURIComponent(id)}`);
      const a = held.data.attributes;
      const message = `Workspace ${a.name} is already locked by you${lockSince(held.data)}.`;
      // With --json the resource goes to stdout as for a new lock; stderr says it was held already.
      if (this.jsonMode) this.note(message);
      this.print(held.data, () => message);
      return;
    }
    this.print(
      ws,
      () => `Locked workspace ${ws.attributes.name}${this.flags.reason ? ` (${this.flags.reason})` : ''}.`,
    );
  }
}
