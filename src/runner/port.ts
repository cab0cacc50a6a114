import type { ClaimedRun as QueuedRun } from '../services/runs/run-claim.js';
import type { PhaseResult } from '../services/runs/run-phases.js';
import type { Phase } from '../services/runs/run-rows.js';
import type { EffectiveVariables } from '../services/variables/effective.js';

export type { EffectiveVariables, Phase, PhaseResult };

/** A claimed phase of a run: what to run, and the run token terraform reaches berth with. */
export interface ClaimedRun extends QueuedRun {
  /**
   * The run token of this phase (services/runs/run-tokens.ts): it reads and writes the run's own
   * workspace's state and reads the states that workspace may consume, while the phase lasts.
   * The executor hands it to terraform in the run's CLI configuration file, and nowhere else.
   */
  token: string;
}

/**
 * Everything the executor needs of berth, and nothing more: claim a queued phase, read the
 * configuration and the workspace's state, write the log, record the state an apply wrote, end
 * the phase, keep the saved plan from the plan to the apply, and learn whether to stop. `berth serve`
 * implements it in-process (in-process-port.ts), `berth agent` over HTTP (http-port.ts).
 */
export interface RunnerPort {
  /** The oldest queued plan or apply, claimed for this executor, with its run token (null: nothing queued). */
  claim(executor: string): Promise<ClaimedRun | null>;
  configuration(configurationVersionId: string): Promise<Buffer | null>;
  appendLog(runId: string, phase: Phase, chunk: Buffer): Promise<void>;
  finishPhase(runId: string, phase: Phase, result: PhaseResult): Promise<void>;
  currentState(runId: string): Promise<Buffer | null>;
  /** The Terraform and environment variables the run's workspace gives it, sensitive values included. */
  variables(runId: string): Promise<EffectiveVariables>;
  storeState(runId: string, state: Buffer): Promise<void>;
  /**
   * Keeps the state an interrupted apply left in its folder (its executor was killed before it
   * recorded it) as a state version of the run that never becomes current, and says so in the run's
   * error message; answers a line for the executor's log.
   */
  keepInterruptedState(runId: string, state: Buffer): Promise<string>;
  /**
   * Keeps the plan a plan phase saved (`terraform plan -out`), before that phase finishes, for the
   * run's apply wherever it executes; rejects one over MAX_SAVED_PLAN_BYTES, or a run no longer planning.
   */
  storePlan(runId: string, plan: Buffer): Promise<void>;
  /**
   * Keeps the JSON plan of the plan a plan phase saved (`terraform show -json`) and the provider
   * schemas it was made with (`terraform providers schema -json`), before that phase finishes, for
   * `GET /plans/:id/json-output(-redacted)`; rejects them over MAX_PLAN_JSON_BYTES together, or a run no longer planning.
   */
  storePlanJson(runId: string, plan: Buffer, schemas: Buffer): Promise<void>;
  /** The plan the run's plan phase saved, for its apply (null: none was stored). */
  savedPlan(runId: string): Promise<Buffer | null>;
  /** 'cancel': interrupt terraform; 'force': kill it (force-canceled, or the run already ended). */
  stopRequested(runId: string): Promise<'cancel' | 'force' | null>;
  /** This executor still runs the runs it claimed (their heartbeat is now). */
  heartbeat(executor: string): Promise<void>;
  /** Ends errored the runs of executors gone quiet for longer than `staleMs`; answers their ids. */
  recoverInterrupted(staleMs: number): Promise<string[]>;
}
