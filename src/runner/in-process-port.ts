import type { Kysely } from 'kysely';
import type { Clock } from '../domain/clock.js';
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
import { claimRun } from '../services/runs/run-claim.js';
import type { DB } from '../store/schema.js';
import type { RunnerPort } from './port.js';

/** The executor's port inside `berth serve`: straight calls into the services, on serve's store. */
export function inProcessPort(db: Kysely<DB>, clock: Clock): RunnerPort {
  const now = () => clock.now().toISOString();
  return {
    claim: (executor) => claimRun(db, executor, now()),
    configuration: (id) => configurationArchive(db, id),
    appendLog: (runId, phase, chunk) => appendRunLog(db, runId, phase, chunk),
    finishPhase: (runId, phase, result) => finishPhase(db, runId, phase, result, now()),
    currentState: (runId) => workspaceState(db, runId),
    storeState: async (runId, state) => {
      await storeRunState(db, runId, state, now());
    },
    stopRequested: (runId) => stopRequested(db, runId),
    heartbeat: (executor) => heartbeatRuns(db, executor, now()),
    recoverInterrupted: (staleMs) => recoverInterrupted(db, clock.now(), staleMs),
  };
}
