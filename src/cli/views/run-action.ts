import type { Resource } from '../../client/jsonapi.js';
import type { RunAttributes } from '../../client/resources.js';
import type { RunActionName, RunsClient } from '../../client/runs.js';
import { BerthError } from '../../domain/common/errors.js';
import { FINAL_STATUSES } from '../../domain/runs/run.js';
import { awaitsConfirmation } from './run.js';

const PAST: Record<RunActionName, string> = {
  apply: 'applied',
  discard: 'discarded',
  cancel: 'canceled',
  'force-cancel': 'force-canceled',
};

/** Why `action` is refused for a run in its status, in words (the API's 409 says only the status). */
export function refusalReason(run: Resource<RunAttributes>, action: RunActionName): string {
  const status = run.attributes.status;
  const head = `${run.id} is ${status}`;
  if ((FINAL_STATUSES as string[]).includes(status)) return `${head}: it can no longer be ${PAST[action]}`;
  if (action === 'apply') {
    if (run.attributes['plan-only']) return `${head}: a plan-only run is never applied`;
    if (['pending', 'plan_queued', 'planning'].includes(status))
      return `${head}: it can be applied once its plan has finished (berth run logs ${run.id} --follow)`;
    return `${head}: it is already being applied`;
  }
  if (action === 'discard') return `${head}: only a run awaiting confirmation can be discarded (cancel it instead)`;
  if (action === 'cancel' && awaitsConfirmation(run)) return `${head}: it awaits confirmation; discard it instead`;
  if (action === 'force-cancel') return `${head}: force-cancel needs a cancel first (berth run cancel ${run.id})`;
  return `${head}: it cannot be ${PAST[action]} now`;
}

/** Asks for the action; a 409 becomes a conflict that says why, in words. */
export async function actOnRun(runs: RunsClient, runId: string, action: RunActionName, comment?: string) {
  try {
    await runs.act(runId, action, comment);
  } catch (err) {
    if (!(err instanceof BerthError) || err.status !== 409) throw err;
    const run = (await runs.getRun(runId)).data;
    throw new BerthError([{ status: 409, title: 'conflict', detail: refusalReason(run, action) }]);
  }
}
