import type { ConfigurationVersionView } from '../../services/runs/configuration-versions.js';
import type { ExecutedBy } from '../../services/runs/run-executors.js';
import type { ExecutedRun, PhaseStatus, ResourceCounts } from '../../domain/runs/run-execution.js';
import { API_PREFIX, toOne, type ResourceObject } from '../documents.js';
import { serializeRun } from './run.js';

const tail = (id: string) => id.replace(/^run-/, '');

/** berth's `executed-by`: the executor of the run's last claimed phase (null: none claimed yet). */
function executedBy(e: ExecutedBy | null | undefined) {
  return e ? { kind: e.kind, name: e.name, 'agent-id': e.agentId, 'agent-pool-id': e.agentPoolId } : null;
}

/**
 * An executed run: a recorded run's document plus what HCP shows of a run berth executes, and
 * berth's `executed-by` (a run the services read with its executor; a run just created has none).
 */
export function serializeExecutedRun(r: ExecutedRun & { executedBy?: ExecutedBy | null }): ResourceObject {
  const base = serializeRun(r);
  const e = r.execution;
  return {
    ...base,
    attributes: {
      ...base.attributes,
      'status-timestamps': e.statusTimestamps,
      'has-changes': e.hasChanges,
      'plan-only': e.planOnly,
      refresh: e.refresh,
      'refresh-only': e.refreshOnly,
      'auto-apply': e.autoApply,
      'allow-empty-apply': e.allowEmptyApply,
      'target-addrs': e.targetAddrs.length ? e.targetAddrs : null,
      'replace-addrs': e.replaceAddrs.length ? e.replaceAddrs : null,
      variables: e.variables,
      'save-plan': e.savePlan,
      // What a plan-only run asked for; null: the workspace's terraform-version applies.
      'terraform-version': e.terraformVersion,
      // Only once a cancel was asked, as HCP (berth has no cool-off: the time of that cancel).
      ...(e.forceCancelAvailableAt ? { 'force-cancel-available-at': e.forceCancelAvailableAt } : {}),
      'executed-by': executedBy(r.executedBy),
      actions: {
        'is-cancelable': r.permissions.canCancel,
        'is-confirmable': r.permissions.canApply,
        'is-discardable': r.permissions.canDiscard,
        'is-force-cancelable': r.mayForceCancel,
      },
      permissions: {
        'can-apply': r.permissions.canApply,
        'can-cancel': r.permissions.canCancel,
        'can-discard': r.permissions.canDiscard,
        'can-force-cancel': r.may.forceCancel,
        'can-force-execute': r.may.forceExecute,
        'can-comment': r.may.comment,
      },
    },
    relationships: {
      ...base.relationships,
      'configuration-version': toOne(
        'configuration-versions',
        e.configurationVersionId,
        `${API_PREFIX}/configuration-versions/${e.configurationVersionId}`,
      ),
      plan: toOne('plans', `plan-${tail(r.id)}`, `${API_PREFIX}/plans/plan-${tail(r.id)}`),
      apply: toOne('applies', `apply-${tail(r.id)}`, `${API_PREFIX}/applies/apply-${tail(r.id)}`),
      'confirmed-by': e.confirmedByUserId
        ? toOne('users', e.confirmedByUserId, `${API_PREFIX}/users/${e.confirmedByUserId}`)
        : { data: null },
      'task-stages': { data: [] },
      'policy-checks': { data: [] },
    },
  };
}

function phaseDocument(
  type: 'plans' | 'applies',
  id: string,
  r: ExecutedRun,
  status: PhaseStatus,
  counts: ResourceCounts | null,
  logReadUrl: string,
  started: string | null,
  finished: string | null,
): ResourceObject {
  const timestamps: Record<string, string> = {};
  if (started) timestamps['started-at'] = started;
  if (finished) timestamps[`${status}-at`] = finished;
  return {
    id,
    type,
    attributes: {
      status,
      'has-changes': type === 'plans' ? r.execution.hasChanges : undefined,
      'resource-additions': counts?.additions ?? 0,
      'resource-changes': counts?.changes ?? 0,
      'resource-destructions': counts?.destructions ?? 0,
      'resource-imports': 0,
      'log-read-url': logReadUrl,
      'status-timestamps': timestamps,
    },
    relationships: { run: toOne('runs', r.id, `${API_PREFIX}/runs/${r.id}`) },
    links: { self: `${API_PREFIX}/${type}/${id}` },
  };
}

export function serializeExecutedPlan(r: ExecutedRun, logReadUrl: string): ResourceObject {
  return phaseDocument(
    'plans',
    `plan-${tail(r.id)}`,
    r,
    r.execution.planStatus,
    r.execution.plan,
    logReadUrl,
    r.planStartedAt,
    r.planFinishedAt,
  );
}

export function serializeExecutedApply(r: ExecutedRun, logReadUrl: string): ResourceObject {
  return phaseDocument(
    'applies',
    `apply-${tail(r.id)}`,
    r,
    r.execution.applyStatus,
    r.execution.apply,
    logReadUrl,
    r.applyStartedAt,
    r.applyFinishedAt,
  );
}

/**
 * A configuration version; `origin` makes its upload URL absolute, which only the create's answer
 * carries (`uploadQuery`), as HCP. berth has no VCS: no version has ingress attributes (commit
 * information), so the relationship is always empty and `include=…ingress_attributes` adds nothing.
 */
export function serializeConfigurationVersion(cv: ConfigurationVersionView, origin: string): ResourceObject {
  const timestamps: Record<string, string> = {};
  if (cv.uploadedAt) timestamps['uploaded-at'] = cv.uploadedAt;
  return {
    id: cv.id,
    type: 'configuration-versions',
    attributes: {
      'auto-queue-runs': cv.autoQueueRuns,
      error: null,
      'error-message': cv.errorMessage,
      source: cv.source,
      speculative: cv.speculative,
      provisional: cv.provisional,
      status: cv.status,
      'status-timestamps': timestamps,
      'created-at': cv.createdAt,
      size: cv.size,
      ...(cv.uploadQuery
        ? { 'upload-url': `${origin}${API_PREFIX}/configuration-versions/${cv.id}/upload?${cv.uploadQuery}` }
        : {}),
    },
    relationships: {
      workspace: toOne('workspaces', cv.workspaceId, `${API_PREFIX}/workspaces/${cv.workspaceId}`),
      'ingress-attributes': { data: null },
    },
    links: {
      self: `${API_PREFIX}/configuration-versions/${cv.id}`,
      download: `${API_PREFIX}/configuration-versions/${cv.id}/download`,
    },
  };
}
