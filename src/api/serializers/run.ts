import type { Run } from '../../domain/runs/run.js';
import { API_PREFIX, linkOnly, toOne, type ResourceObject } from '../documents.js';

const tail = (id: string) => id.replace(/^run-/, '');

/** A run record. Its plan and apply are named after it (`plan-…`, `apply-…`). */
export function serializeRun(r: Run): ResourceObject {
  const timestamps: Record<string, string> = {};
  if (r.planStartedAt) timestamps['planning-at'] = r.planStartedAt;
  if (r.planFinishedAt) timestamps['planned-at'] = r.planFinishedAt;
  if (r.applyStartedAt) timestamps['applying-at'] = r.applyStartedAt;
  if (r.applyFinishedAt) timestamps[`${r.status === 'applied' ? 'applied' : 'apply-finished'}-at`] = r.applyFinishedAt;
  if (r.status === 'errored' || r.status === 'canceled' || r.status === 'discarded')
    timestamps[`${r.status}-at`] = r.updatedAt;
  // What the run recorded of each status it went through wins; the above serves older runs.
  Object.assign(timestamps, r.statusTimestamps);
  return {
    id: r.id,
    type: 'runs',
    attributes: {
      status: r.status,
      message: r.message,
      'is-destroy': r.isDestroy,
      source: r.source,
      'created-at': r.createdAt,
      'status-timestamps': timestamps,
      'canceled-at': timestamps['canceled-at'] ?? timestamps['force-canceled-at'] ?? null,
      'error-message': r.errorMessage,
      'policy-check-failed': r.policyCheckFailed,
      actions: {
        'is-cancelable': r.permissions.canCancel,
        'is-confirmable': r.permissions.canApply,
        'is-discardable': r.permissions.canDiscard,
      },
      permissions: {
        'can-apply': r.permissions.canApply,
        'can-cancel': r.permissions.canCancel,
        'can-discard': r.permissions.canDiscard,
      },
    },
    relationships: {
      workspace: toOne('workspaces', r.workspaceId, `${API_PREFIX}/workspaces/${r.workspaceId}`),
      plan: toOne('plans', `plan-${tail(r.id)}`),
      apply: toOne('applies', `apply-${tail(r.id)}`),
      'configuration-version': { data: null },
      // Its comments and history (routes/comments.ts); `GET /runs/:id` adds the comments' ids.
      comments: linkOnly(`${API_PREFIX}/runs/${r.id}/comments`),
      'run-events': linkOnly(`${API_PREFIX}/runs/${r.id}/run-events`),
    },
    links: { self: `${API_PREFIX}/runs/${r.id}` },
  };
}

/** The plan of a run (for `include=current_run.plan`): its status and times. */
export function serializePlan(r: Run): ResourceObject {
  const status = r.planFinishedAt
    ? r.status === 'errored' && !r.applyStartedAt
      ? 'errored'
      : 'finished'
    : r.planStartedAt
      ? 'running'
      : 'pending';
  return {
    id: `plan-${tail(r.id)}`,
    type: 'plans',
    attributes: {
      status,
      'status-timestamps': {
        ...(r.planStartedAt ? { 'started-at': r.planStartedAt } : {}),
        ...(r.planFinishedAt ? { 'finished-at': r.planFinishedAt } : {}),
      },
    },
    relationships: { run: toOne('runs', r.id) },
  };
}
