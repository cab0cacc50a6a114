import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { BulkNote, bulkFlags, bulkTable, matchingWorkspaces, runBulk } from '../../cli/bulk.js';
import { explainLockConflict, isNotLocked } from '../../cli/lock-conflict.js';
import { usageError } from '../../cli/prompts.js';
import { parseWorkspaceArg } from '../../cli/resolve-workspace.js';
import type { WorkspaceAttributes } from '../../client/resources.js';
import { WorkspaceStateClient } from '../../client/state.js';

export default class WorkspaceUnlock extends BerthCommand<typeof WorkspaceUnlock> {
  static override summary = 'Unlock a workspace you locked (or, with --force, any lock; admins only).';
  static override description = `Exits 8 when someone else holds the lock, and 9 while the latest state upload is still pending (retry shortly). Unlocking a workspace that is not locked says so and exits 0, as locking one you hold does (the API answers 409).

With --all-matching and the filters of \`workspace list\`, unlocks every matching workspace that is locked, with a preview, a confirmation (or --yes) and a result per workspace. --dry-run previews and changes nothing.`;
  static override examples = [
    '<%= config.bin %> workspace unlock app-prod --org acme',
    '<%= config.bin %> workspace unlock acme/app-prod --force',
    '<%= config.bin %> workspace unlock --all-matching --org acme --wildcard "app-*" --yes',
  ];
  static override args = { workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME' }) };
  static override flags = {
    force: Flags.boolean({ description: 'release a lock held by someone else (force-unlock)', default: false }),
    ...bulkFlags('unlock'),
  };

  async run(): Promise<void> {
    const client = await this.client();
    const state = new WorkspaceStateClient(client);
    if (this.flags['all-matching']) {
      const matching = await matchingWorkspaces(client, this.requireOrg(), this.args.workspace, this.flags);
      const locked = matching.filter((w) => w.attributes.locked);
      const { results, exitCode } = await runBulk(locked, 'Unlocking', this.flags, (w) =>
        state.unlock(w.id, this.flags.force).catch((err) => {
          // Unlocked in the meantime (by its holder, or another bulk run): nothing left to do.
          if (isNotLocked(err)) return new BulkNote('already unlocked');
          return explainLockConflict(err, client, w.id);
        }),
      );
      this.print(results, () => (locked.length === 0 ? 'No matching workspace is locked.' : bulkTable(results)));
      if (exitCode !== 0) this.exit(exitCode);
      return;
    }
    if (!this.args.workspace) throw usageError('say which workspace to unlock, or use --all-matching with filters');
    const id = await state.workspaceId(parseWorkspaceArg(this.args.workspace, this.flags.org));
    const ws = await state
      .unlock(id, this.flags.force)
      .catch((err) => (isNotLocked(err) ? null : explainLockConflict(err, client, id)));
    if (ws === null) {
      const current = await client.get<WorkspaceAttributes>(`/workspaces/${encodeURIComponent(id)}`);
      const message = `Workspace ${current.data.attributes.name} is not locked: nothing to unlock.`;
      // With --json the resource goes to stdout as for an unlock; stderr says there was none.
      if (this.jsonMode) this.note(message);
      this.print(current.data, () => message);
      return;
    }
    this.print(ws, () => `${this.flags.force ? 'Force-unlocked' : 'Unlocked'} workspace ${ws.attributes.name}.`);
  }
}
