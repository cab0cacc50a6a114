import type { Kysely } from 'kysely';
import type { Clock } from '../domain/common/clock.js';
import { configurationArchive } from '../services/runs/configuration-versions.js';
import {
  appendRunLog,
  finishPhase,
  heartbeatRuns,
  recoverInterrupted,
  stopRequested,
  storeRunState,
  workspaceState,
} from '../services/runs/run-phases.js';
import { claimWithRunToken } from '../services/runs/run-claim-token.js';
import { keepInterruptedState } from '../services/runs/interrupted-state.js';
import { storePlanJson } from '../services/runs/plan-json.js';
import { savedPlan, storeSavedPlan } from '../services/runs/saved-plans.js';
import { DEFAULT_RUN_TOKEN_TTL_MS } from '../services/runs/run-tokens.js';
import { effectiveVariablesOfRun } from '../services/variables/effective.js';
import type { DB } from '../store/schema.js';
import type { RunnerPort } from './port.js';

/**
 * The executor's port inside `berth serve`: straight calls into the services, on serve's store.
 * `runTokenTtlMs`: how long a claimed phase's run token lives at most (`runTokenTtl`).
 */
export function inProcessPort(db: Kysely<DB>, clock: Clock, options: { runTokenTtlMs?: number } = {}): RunnerPort {
  const now = () => clock.now().toISOString();
  return {
    claim: (executor) =>
      claimWithRunToken(db, executor, clock.now(), options.runTokenTtlMs ?? DEFAULT_RUN_TOKEN_TTL_MS),
    configuration: (id) => configurationArchive(db, id),
    appendLog: (runId, phase, chunk) => appendRunLog(db, runId, phase, chunk),
    finishPhase: (runId, phase, result) => finishPhase(db, runId, phase, result, now()),
    currentState: (runId) => workspaceState(db, runId),
    variables: (runId) => effectiveVariablesOfRun(db, runId),
    storeState: async (runId, state) => {
      await storeRunState(db, runId, state, now());
    },
    keepInterruptedState: async (runId, state) => {
      const kept = await keepInterruptedState(db, runId, state, now());
      return kept
        ? `kept the state left by the interrupted apply of run ${runId} as state version ${kept.stateVersionId} (not current)`
        : `did not keep the state left by run ${runId}: it is gone or was not applying`;
    },
    storePlan: (runId, plan) => storeSavedPlan(db, runId, plan, now()),
    storePlanJson: (runId, plan, schemas) => storePlanJson(db, runId, plan, schemas, now()),
    savedPlan: (runId) => savedPlan(db, runId),
    stopRequested: (runId) => stopRequested(db, runId),
    heartbeat: (executor) => heartbeatRuns(db, executor, now()),
    recoverInterrupted: (staleMs) => recoverInterrupted(db, clock.now(), staleMs),
  };
}
