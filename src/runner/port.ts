import type { ClaimedRun } from '../services/runs/run-claim.js';
import type { PhaseResult } from '../services/runs/run-phases.js';
import type { Phase } from '../services/runs/run-rows.js';

export type { ClaimedRun, Phase, PhaseResult };

/**
 * Everything the executor needs of berth, and nothing more: claim a queued phase, read the
 * configuration and the workspace's state, write the log, record the state an apply wrote, end
 * the phase, and learn whether to stop. `serve --execute-runs` implements it in-process
 * (in-process-port.ts); a later `berth agent` would implement it over HTTP.
 */
export interface RunnerPort {
  /** The oldest queued plan or apply, claimed for this executor (null: nothing queued). */
  claim(executor: string): Promise<ClaimedRun | null>;
  configuration(configurationVersionId: string): Promise<Buffer | null>;
  appendLog(runId: string, phase: Phase, chunk: Buffer): Promise<void>;
  finishPhase(runId: string, phase: Phase, result: PhaseResult): Promise<void>;
  currentState(runId: string): Promise<Buffer | null>;
  storeState(runId: string, state: Buffer): Promise<void>;
  /** 'cancel': interrupt terraform; 'force': kill it (force-canceled, or the run already ended). */
  stopRequested(runId: string): Promise<'cancel' | 'force' | null>;
  /** This executor still runs the runs it claimed (their heartbeat is now). */
  heartbeat(executor: string): Promise<void>;
  /** Ends errored the runs of executors gone quiet for longer than `staleMs`; answers their ids. */
  recoverInterrupted(staleMs: number): Promise<string[]>;
}
