import { Args, Flags } from '../../cli/oclif.js';
import { BerthCommand } from '../../cli/base-command.js';
import { explainLockConflict } from '../../cli/workspaces/lock-conflict.js';
import { describeLock } from '../../cli/workspaces/lock-holder.js';
import { usageError } from '../../cli/common/prompts.js';
import { parseWorkspaceArg } from '../../cli/workspaces/resolve-workspace.js';
import { runFields } from '../../cli/views/run.js';
import type { BerthClient } from '../../client/client.js';
import type { Resource } from '../../client/jsonapi.js';
import type { RunAttributes, WorkspaceAttributes } from '../../client/resources.js';
import { WorkspaceStateClient } from '../../client/state.js';
import { tokensApi } from '../../client/teams.js';
import { BerthError } from '../../domain/common/errors.js';

/**
 * Refuses, before a run is created, a workspace whose lock someone else holds: the run could not
 * start, and a pending run left behind would become the workspace's current run. A lock the
 * caller holds is no obstacle (the run is recorded under it). A holder the CLI cannot compare
 * (a lock taken with an organization token) is left to the server.
 */
async function refuseForeignLock(client: BerthClient, workspaceId: string): Promise<void> {
  const doc = await client.get<WorkspaceAttributes>(`/workspaces/${encodeURIComponent(workspaceId)}`, {
    include: 'locked_by',
  });
  const ws = doc.data;
  if (!ws.attributes.locked) return;
  const holder = ws.relationships?.['locked-by']?.data;
  if (!holder || Array.isArray(holder)) return;
  if (holder.type === 'users' || holder.type === 'teams') {
    // A server without berth's /whoami cannot say who the caller is: its own answer decides.
    const me = await tokensApi(client)
      .whoami()
      .then((r) => r.data.attributes)
      .catch((err: unknown) => {
        if (err instanceof BerthError) return null;
        throw err;
      });
    if (me === null) return;
    if (holder.type === 'users' && me['user-id'] === holder.id) return;
    if (holder.type === 'teams' && me['team-id'] === holder.id) return;
  }
  throw new BerthError([
    {
      status: 409,
      title: 'conflict',
      detail: `Workspace ${ws.attributes.name} is ${describeLock(ws, doc.included ?? [])}; a run cannot be recorded until it is unlocked (nothing was recorded).`,
    },
  ]);
}

/**
 * Ends a run that could not be recorded, so that it is not left pending as the workspace's current
 * run. Its status is read again: the report may have moved it through some phases before a refusal.
 */
async function abandon(client: BerthClient, state: WorkspaceStateClient, run: Resource<RunAttributes>): Promise<void> {
  const current = await client
    .get<RunAttributes>(`/runs/${encodeURIComponent(run.id)}`)
    .then((r) => r.data)
    .catch(() => run);
  const status = current.attributes.status === 'pending' ? 'discarded' : 'canceled';
  await state.report(run.id, { status }).catch(() => undefined);
}

const OUTCOMES = ['applied', 'errored', 'planned_and_finished', 'discarded', 'canceled'] as const;

export default class RunRecord extends BerthCommand<typeof RunRecord> {
  static override summary = 'Record a run executed elsewhere, with its outcome and phase durations.';
  static override description = `For scripts that import run history: creates a run and reports its phases through berth's executor extension (POST /runs/:id/actions/report), ending at --finished-at (default now). The durations feed the workspace's performance attributes.

While it is reported, the run holds the workspace lock, so the workspace must not be locked by someone else. A workspace you have locked yourself is fine: the run is recorded under your lock, which stays held. When the run cannot be recorded, nothing is left behind: a workspace locked by someone else is refused before any run is created (exit 8, naming the holder).`;
  static override examples = [
    '<%= config.bin %> run record app-prod --org acme --status applied --plan-ms 42000 --apply-ms 180000 --message "nightly"',
    '<%= config.bin %> run record acme/app-prod --status errored --plan-ms 9000 --error "provider crashed"',
    '<%= config.bin %> run record acme/app-prod --status errored --plan-ms 9000 --policy-failed',
  ];
  static override args = {
    workspace: Args.string({ description: 'ws- id, NAME (with --org) or ORG/NAME', required: true }),
  };
  static override flags = {
    status: Flags.string({ description: 'how the run ended', options: [...OUTCOMES], required: true }),
    'plan-ms': Flags.integer({ description: 'plan duration in milliseconds', min: 0, default: 0 }),
    'apply-ms': Flags.integer({
      description: 'apply duration in milliseconds (applied, or errored while applying)',
      min: 0,
    }),
    message: Flags.string({ description: 'run message' }),
    destroy: Flags.boolean({ description: 'a destroy run', default: false }),
    error: Flags.string({ description: 'error message (errored runs)' }),
    'policy-failed': Flags.boolean({ description: 'the run failed a policy check', default: false }),
    'finished-at': Flags.string({ description: 'when the run ended (ISO-8601; default now)' }),
  };

  async run(): Promise<void> {
    const f = this.flags;
    const end = f['finished-at'] ? Date.parse(f['finished-at']) : Date.now();
    if (Number.isNaN(end)) throw usageError(`--finished-at ${f['finished-at']} is not a timestamp`);
    if (f['apply-ms'] !== undefined && !['applied', 'errored'].includes(f.status))
      throw usageError('--apply-ms needs --status applied or errored');
    const applyMs = f['apply-ms'] ?? (f.status === 'applied' ? 0 : undefined);
    const iso = (ms: number) => new Date(ms).toISOString();
    const applyStart = applyMs === undefined ? end : end - applyMs;
    const planEnd = applyStart;
    const planStart = planEnd - f['plan-ms'];

    const client = await this.client();
    const state = new WorkspaceStateClient(client);
    const ref = parseWorkspaceArg(this.args.workspace, f.org);
    const id = await state.workspaceId(ref);
    await refuseForeignLock(client, id);
    // `status: pending` makes it a recorded run even on a server that executes runs (where a run
    // created without a report is one it executes); the report then moves it, in one request.
    const run = (await state.createRun(id, { message: f.message, 'is-destroy': f.destroy, status: 'pending' })).data;
    const steps: { status: string; at: string }[] = [];
    if (f.status !== 'canceled') steps.push({ status: 'planning', at: iso(planStart) });
    if (f.status === 'applied' || (f.status === 'errored' && applyMs !== undefined)) {
      steps.push({ status: 'planned', at: iso(planEnd) }, { status: 'applying', at: iso(applyStart) });
    } else if (f.status === 'discarded') {
      steps.push({ status: 'planned', at: iso(planEnd) });
    }
    steps.push({ status: f.status, at: iso(end) });
    let last = run;
    try {
      // One report with the earlier phases in it: one audit record for the run's outcome.
      last = await state.report(run.id, {
        ...steps[steps.length - 1],
        ...(steps.length > 1 ? { phases: steps.slice(0, -1) } : {}),
        ...(f.error ? { 'error-message': f.error } : {}),
        ...(f['policy-failed'] ? { 'policy-check-failed': true } : {}),
      });
    } catch (err) {
      // Taken by someone else between the check and the report: end the run, then say who holds it.
      await abandon(client, state, last);
      await explainLockConflict(err, client, id);
    }
    const name = 'name' in ref ? ref.name : undefined;
    this.print(last, () => `Recorded run ${last.id} (${last.attributes.status}).\n${runFields(last, name)}`);
  }
}
