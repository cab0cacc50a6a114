import type { RunStatus } from '../domain/runs/run.js';
import { onRunMoves, type RunMove } from '../services/runs/run-lifecycle.js';
import type { LogFields, LogLevel, ServeLogger } from './serve-log.js';

/**
 * serve's log of runs' lifecycles: a line for each move of a run (services/runs/run-lifecycle.ts),
 * once it committed, with the run, its workspace and organization: `run queued` (phase plan or
 * apply), `run claimed` (by serve's executor or an agent), `run planned`, `run planned and
 * finished`, `run confirmed`, `run applied`, `run errored` (with the run's error), `run canceled`,
 * `run discarded`, ... In text: `2026-01-31T09:15:02.123Z run claimed run=run-... workspace=ws-...
 * organization=acme status=planning phase=plan executor=serve-...`; in json, the same fields.
 * Answers the function that stops it.
 */
export function logRunMoves(logger: ServeLogger): () => void {
  if (!logger.enabled('info') && !logger.enabled('warn')) return () => undefined;
  return onRunMoves((move) => {
    const { level, msg, fields } = runMoveEntry(move);
    logger.entry(level, msg, fields);
  });
}

const WORDS: Partial<Record<RunStatus, string>> = {
  pending: 'created',
  plan_queued: 'queued',
  apply_queued: 'queued',
  planning: 'claimed',
  applying: 'claimed',
  planned_and_finished: 'planned and finished',
  planned_and_saved: 'planned and saved',
  force_canceled: 'force-canceled',
};

/** The log entry of one move: an errored run is a warning, every other move information. */
export function runMoveEntry(move: RunMove): { level: LogLevel; msg: string; fields: LogFields } {
  const phase =
    move.status === 'plan_queued' || move.status === 'planning'
      ? 'plan'
      : move.status === 'apply_queued' || move.status === 'applying'
        ? 'apply'
        : undefined;
  const fields: LogFields = {
    run: move.runId,
    workspace: move.workspaceId,
    organization: move.organization,
    status: move.status,
    phase,
  };
  if (move.claimedBy !== null) {
    // An agent claims with its id; serve's executors with their name (runner/executor.ts).
    if (/^agent-[A-Za-z0-9]{16}$/.test(move.claimedBy)) fields.agent = move.claimedBy;
    else fields.executor = move.claimedBy;
  }
  if (move.status === 'errored') fields.error = move.errorMessage;
  return {
    level: move.status === 'errored' ? 'warn' : 'info',
    msg: `run ${WORDS[move.status] ?? move.status.replace(/_/g, ' ')}`,
    fields,
  };
}
