import * as v from 'valibot';
import { text } from '../common/attributes.js';
import { TEXT_LIMITS } from '../common/limits.js';
import { RUN_STATUSES, type RunStatus } from './run.js';

/**
 * A run's history (HCP's run events) and its comments: what each event says happened, and what a
 * comment may hold. The services record them (services/runs/run-events.ts, comments.ts).
 */

/** Something that happened to a run, as the API shows it. */
export interface RunEvent {
  id: string;
  runId: string;
  /** `created`, `queued`, a status the run moved to, `cancel_requested` or `commented`. */
  action: string;
  description: string | null;
  /** The user who did it; null for berth itself (its queue, its executors) or a token of no user. */
  actorUserId: string | null;
  /** The comment given with it (an action's, or the `commented` event's own). */
  commentId: string | null;
  createdAt: string;
}

/** A comment on a run: its text, who wrote it, and the event it belongs to. */
export interface RunComment {
  id: string;
  runId: string;
  runEventId: string;
  body: string;
  authorUserId: string | null;
  createdAt: string;
}

/** A cancel asked of a run that is planning or applying: its executor ends it (`canceled`) later. */
export const CANCEL_REQUESTED = 'cancel_requested';
export const COMMENTED = 'commented';

/**
 * The action of the event of a move to `status`: HCP names a run's creation `created` and its
 * entering the queue of plans `queued` (the Terraform CLI's tests list both); any other move is
 * named after the status it reached.
 */
export function moveAction(status: RunStatus): string {
  if (status === 'pending') return 'created';
  if (status === 'plan_queued') return 'queued';
  return status;
}

/** The status a `status-timestamps` key stamps (`plan-queued-at`: plan_queued), if it is one. */
export function statusOfStamp(key: string): RunStatus | null {
  if (!key.endsWith('-at')) return null;
  const status = key.slice(0, -3).replace(/-/g, '_');
  return (RUN_STATUSES as readonly string[]).includes(status) ? (status as RunStatus) : null;
}

/** A comment's body: text of at most TEXT_LIMITS.runComment characters, not blank. */
export const commentBody = () =>
  v.pipe(
    text(TEXT_LIMITS.runComment),
    v.check((s) => s.trim() !== '', "can't be blank"),
  );
