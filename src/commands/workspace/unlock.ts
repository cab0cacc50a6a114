import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { BulkNote, bulkFlags, bulkTable, matchingWorkspacesWith, runBulk } from '../../cli/workspaces/bulk.js';
import { explainLockConflict, isNotLocked } from '../../cli/workspaces/lock-conflict.js';
import { lockHeldBy, lockHolderName } from '../../cli/workspaces/lock-holder.js';
import { renderTable } from '../../cli/output/output.js';
import { usageError } from '../../cli/common/prompts.js';
import { parseWorkspaceArg } from '../../cli/workspaces/resolve-workspace.js';
import type { BerthClient } from '../../client/client.js';
import type { Resource } from '../../client/jsonapi.js';
import type { WorkspaceAttributes } from '../../client/resources.js';
import { WorkspaceStateClient } from '../../client/state.js';

export default class WorkspaceUnlock extends BerthCommand<typeof WorkspaceUnlock> {
  static override summary = 'Unlock a workspace you locked (or, with --force, any lock; admins only).';
  static override description = `Exits 8 when someone else holds the lock, and 9 while the latest state upload is still pending (retry shortly). Unlocking a workspace that is not locked says so and exits 0, as locking one you hold does (the API answers 409).

With --all-matching and the filters of \`workspace list\`, unlocks every matching workspace that is locked, with a preview (who holds each lock, since when and why), a confirmation (or --yes) and a result per workspace. --locked-by NAME keeps only the locks held by that user or team (a name or id; a run by its id), --reason-match TEXT only those whose reason contains TEXT (case-insensitive): either is a filter of its own. --dry-run previews and changes nothing.`;
  static override examples = [
    '<%= config.bin %> workspace unlock app-prod --org acme',
    '<%= config.bin %> workspace unlock acme/app-prod --force',
    '<%= config.bin %> workspace unlock --all-matching --org acme --wildcard "app-*" --yes',
    '<%= config.bin %> workspace unlock --all-matching --org acme -p data --locked-by alice --reason-match freeze',
  ];
  static override args = { workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME' }) };
  static override flags = {
    force: Flags.boolean({ description: 'release a lock held by someone else (force-unlock)', default: false }),
    ...bulkFlags('unlock'),
    'locked-by': Flags.string({
      description: 'with --all-matching: only locks held by this user or team (name or id; a run by its id)',
    }),
    'reason-match': Flags.string({
      description: 'with --all-matching: only locks whose reason contains this text (case-insensitive)',
    }),
  };

  async run(): Promise<void> {
    const client = await this.client();
    const state = new WorkspaceStateClient(client);
    const f = this.flags;
    const byHolder = f['locked-by'];
    const byReason = f['reason-match'];
    if (!f['all-matching'] && (byHolder !== undefined || byReason !== undefined))
      throw usageError('--locked-by and --reason-match select among workspaces: use them with --all-matching');
    if (f['all-matching']) {
      // A holder or reason filter is a filter of its own: it selects among locked workspaces only.
      const filters = byHolder !== undefined || byReason !== undefined ? { ...f, locked: f.locked ?? true } : f;
      const { data: matching, included } = await matchingWorkspacesWith(
        client,
        this.requireOrg(),
        this.args.workspace,
        filters,
        'locked_by',
      );
      const locked = matching.filter(
        (w) =>
          w.attributes.locked &&
          (byHolder === undefined || lockHeldBy(w, included, byHolder)) &&
          (byReason === undefined ||
            (w.attributes['locked-reason'] ?? '').toLowerCase().includes(byReason.toLowerCase())),
      );
      const byId = new Map(locked.map((w) => [w.id, w]));
      const holder = (w: Resource<WorkspaceAttributes> | undefined) => (w ? lockHolderName(w, included) : null);
      const reason = (w: Resource<WorkspaceAttributes> | undefined) => w?.attributes['locked-reason'] || null;
      const preview = (items: Resource[]) =>
        renderTable(
          items as Resource<WorkspaceAttributes>[],
          [
            { header: 'WORKSPACE', value: (w) => w.attributes.name },
            { header: 'LOCKED BY', value: (w) => holder(w) },
            { header: 'SINCE', value: (w) => w.attributes['locked-at'] },
            { header: 'REASON', value: (w) => reason(w) },
          ],
          { diagnostic: true },
        );
      const { results, exitCode } = await runBulk(
        locked,
        'Unlocking',
        f,
        (w) =>
          state.unlock(w.id, f.force).catch((err) => {
            // Unlocked in the meantime (by its holder, or another bulk run): nothing left to do.
            if (isNotLocked(err)) return new BulkNote('already unlocked');
            return explainLockConflict(err, client, w.id);
          }),
        preview,
      );
      this.print(results, () =>
        locked.length === 0
          ? 'No matching workspace is locked.'
          : bulkTable(results, [
              { header: 'LOCKED BY', value: (r) => holder(byId.get(r.id)) },
              { header: 'REASON', value: (r) => reason(byId.get(r.id)) },
            ]),
      );
      if (exitCode !== 0) this.exit(exitCode);
      return;
    }
    if (!this.args.workspace) throw usageError('say which workspace to unlock, or use --all-matching with filters');
    const id = await state.workspaceId(parseWorkspaceArg(this.args.workspace, f.org));
    // A run's lock: force-unlocking it ends the run (it never applies); say so once done.
    const runHolder = f.force ? await lockingRun(client, id) : null;
    const ws = await state
      .unlock(id, f.force)
      .catch((err) => (isNotLocked(err) ? null : explainLockConflict(err, client, id)));
    if (ws === null) {
      const current = await client.get<WorkspaceAttributes>(`/workspaces/${encodeURIComponent(id)}`);
      const message = `Workspace ${current.data.attributes.name} is not locked: nothing to unlock.`;
      // With --json the resource goes to stdout as for an unlock; stderr says there was none.
      if (this.jsonMode) this.note(message);
      this.print(current.data, () => message);
      return;
    }
    const ended = runHolder ? ` Run ${runHolder} held the lock: it was ended and will not apply.` : '';
    this.print(ws, () => `${f.force ? 'Force-unlocked' : 'Unlocked'} workspace ${ws.attributes.name}.${ended}`);
  }
}

/** The run holding the workspace's lock, if a run does. */
async function lockingRun(client: BerthClient, id: string): Promise<string | null> {
  const doc = await client.get<WorkspaceAttributes>(`/workspaces/${encodeURIComponent(id)}`);
  const holder = doc.data.relationships?.['locked-by']?.data;
  return holder && !Array.isArray(holder) && holder.type === 'runs' ? holder.id : null;
}
