import type { RunStatus } from '../../domain/runs/run.js';
import { RUN_STATUSES } from '../../domain/runs/run.js';
import { afterCommit, type Tx } from '../../store/transaction.js';

/**
 * The moves of runs, told to this process's listeners once their transaction commits: what
 * `berth serve` writes in its log as a run's lifecycle (queued, claimed, planned, applied, errored,
 * canceled, discarded, ...). Every move is an event of the run (run-events.ts records it, in the
 * transaction of the move), so this sees them all, whoever made them: a request, serve's executor,
 * an agent's claim, the scheduler, the sweep of gone agents. In-process only, like runner/wake.ts:
 * another instance on one PostgreSQL database logs the moves made there. Without a listener (the
 * CLI's local mode) it costs nothing.
 */
export interface RunMove {
  runId: string;
  /** The status the run moved to. */
  status: RunStatus;
  /** When, as the event says. */
  at: string;
  workspaceId: string;
  /** The workspace's organization, by name. */
  organization: string;
  /** Planning or applying: who claimed the phase (serve's executor by its name, or an agent by its `agent-` id). */
  claimedBy: string | null;
  /** Errored: why, as the run says. */
  errorMessage: string | null;
}

const listeners = new Set<(move: RunMove) => void>();

/** Listens to the moves of runs (after their commit); answers the function that stops it. */
export function onRunMoves(listener: (move: RunMove) => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The status an event's action names (`created`: pending, `queued`: plan_queued), or null for one that is no move. */
export function statusOfAction(action: string): RunStatus | null {
  if (action === 'created') return 'pending';
  if (action === 'queued') return 'plan_queued';
  return (RUN_STATUSES as readonly string[]).includes(action) ? (action as RunStatus) : null;
}

/**
 * Called with every event of a run as it is recorded (inside its transaction, after the run's row
 * was written): a move is read with its workspace and organization, and told once committed.
 */
export async function noteRunEvent(tx: Tx, runId: string, action: string, at: string): Promise<void> {
  if (listeners.size === 0) return;
  const status = statusOfAction(action);
  if (status === null) return;
  const row = await tx
    .selectFrom('runs')
    .innerJoin('workspaces', 'workspaces.id', 'runs.workspace_id')
    .innerJoin('organizations', 'organizations.id', 'workspaces.organization_id')
    .select(['runs.workspace_id', 'runs.claimed_by', 'runs.error_message', 'organizations.name'])
    .where('runs.id', '=', runId)
    .executeTakeFirst();
  if (!row) return;
  const move: RunMove = {
    runId,
    status,
    at,
    workspaceId: row.workspace_id,
    organization: row.name,
    claimedBy: status === 'planning' || status === 'applying' ? row.claimed_by : null,
    errorMessage: status === 'errored' ? row.error_message : null,
  };
  afterCommit(tx, () => {
    for (const listener of listeners) listener(move);
  });
}
