import { FINAL_STATUSES } from '../domain/runs/run.js';
import { LOG_END, LOG_START } from '../domain/runs/run-execution.js';
import type { PhaseName, RunsClient } from './runs.js';

/** Phase statuses after which its log grows no more. */
const PHASE_ENDED = ['finished', 'errored', 'canceled', 'unreachable'];

/** Statuses of a run that awaits someone's apply or discard. */
export const AWAITING_CONFIRMATION = [
  'planned',
  'cost_estimated',
  'policy_checked',
  'policy_override',
  'policy_soft_failed',
  'planned_and_saved',
];

/** Statuses before the plan ended. */
const PLANNING = ['pending', 'plan_queued', 'planning'];
/** Statuses between a confirmation and the apply's end. */
const APPLYING = ['confirmed', 'apply_queued', 'applying'];

const isFinal = (status: string) => (FINAL_STATUSES as string[]).includes(status);

/** Waits between two polls that found nothing new: from 100 ms, doubling, up to 1 s. */
class Backoff {
  private ms = 100;
  reset() {
    this.ms = 100;
  }
  async wait() {
    await new Promise((r) => setTimeout(r, this.ms));
    this.ms = Math.min(1000, this.ms * 2);
  }
}

/**
 * Prints a phase's log without its STX/ETX framing. Reads it by offset through its signed URL
 * (as go-tfe's log reader does); with `follow`, keeps polling until the ETX arrives or the phase
 * (or the whole run) has ended and nothing more is there. Answers whether the log ended.
 */
export async function printLog(
  runs: RunsClient,
  runId: string,
  phase: PhaseName,
  write: (text: string) => void,
  follow: boolean,
): Promise<void> {
  const url = (await runs.phase(runId, phase)).attributes['log-read-url'];
  const backoff = new Backoff();
  let offset = 0;
  for (;;) {
    // The status is read before the log: a phase that had ended then has all its log there.
    const ended = follow ? await phaseEnded(runs, runId, phase) : true;
    let chunk = await runs.readLog(url, offset);
    while (chunk.length > 0) {
      offset += chunk.length;
      const text = chunk.toString('utf8');
      const end = text.indexOf(LOG_END);
      write((end >= 0 ? text.slice(0, end) : text).split(LOG_START).join(''));
      if (end >= 0) return;
      chunk = await runs.readLog(url, offset);
      backoff.reset();
    }
    if (ended) return;
    await backoff.wait();
  }
}

async function phaseEnded(runs: RunsClient, runId: string, phase: PhaseName): Promise<boolean> {
  const [p, run] = await Promise.all([runs.phase(runId, phase), runs.getRun(runId)]);
  return PHASE_ENDED.includes(p.attributes.status) || isFinal(run.data.attributes.status);
}

/** Polls the run until its status leaves `from` (the plan or apply has ended). */
async function leaving(runs: RunsClient, runId: string, from: string[]): Promise<string> {
  const backoff = new Backoff();
  for (;;) {
    const status = (await runs.getRun(runId)).data.attributes.status;
    if (!from.includes(status)) return status;
    await backoff.wait();
  }
}

/**
 * Follows a run: its plan's log, then (when it goes on to apply: auto-apply, or a confirmation)
 * its apply's, until the run ends or awaits confirmation. Answers its last status.
 */
export async function followRun(runs: RunsClient, runId: string, write: (text: string) => void): Promise<string> {
  let status = (await runs.getRun(runId)).data.attributes.status;
  if (PLANNING.includes(status)) {
    await printLog(runs, runId, 'plan', write, true);
    status = await leaving(runs, runId, PLANNING);
  }
  if (APPLYING.includes(status)) {
    await printLog(runs, runId, 'apply', write, true);
    status = await leaving(runs, runId, APPLYING);
  }
  return status;
}
