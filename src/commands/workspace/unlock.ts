import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { bulkFlags, bulkTable, matchingWorkspaces, runBulk } from '../../cli/bulk.js';
import { explainLockConflict } from '../../cli/lock-conflict.js';
import { usageError } from '../../cli/prompts.js';
import { parseWorkspaceArg } from '../../cli/resolve-workspace.js';
import { WorkspaceStateClient } from '../../client/state.js';

export default class WorkspaceUnlock extends BerthCommand<typeof WorkspaceUnlock> {
  static override summary = 'Unlock a workspace you locked (or, with --force, any lock; admins only).';
  static override description = `Exits 8 when someone else holds the lock, 4 when it is not locked, and 9 while the latest state upload is still pending (retry shortly).

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
        state.unlock(w.id, this.flags.force).catch((err) => explainLockConflict(err, client, w.id)),
      );
      this.print(results, () => (locked.length === 0 ? 'No matching workspace is locked.' : bulkTable(results)));
      if (exitCode !== 0) this.exit(exitCode);
      return;
    }
    if (!this.args.workspace) throw usageError('say which workspace to unlock, or use --all-matching with filters');
    const id = await state.workspaceId(parseWorkspaceArg(this.args.workspace, this.flags.org));
    const ws = await state.unlock(id, this.flags.force).catch((err) => explainLockConflict(err, client, id));
    this.print(ws, () => `${this.flags.force ? 'Force-unlocked' : 'Unlocked'} workspace ${ws.attributes.name}.`);
  }
}
