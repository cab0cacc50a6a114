import type { Edition, VcsRepo, Workspace } from '../../domain/workspaces/workspace.js';
import type { WorkspaceOutput } from '../../services/workspaces/workspaces-include.js';
import type { EffectiveTagBinding } from '../../services/workspaces/workspaces-read.js';
import { API_PREFIX, linkOnly, toOne, type Relationship, type ResourceObject } from '../documents.js';

const PROVIDER_HOSTS: Record<string, string> = {
  github: 'https://github.com',
  github_enterprise: 'https://github.com',
  gitlab_hosted: 'https://gitlab.com',
  gitlab_community_edition: 'https://gitlab.com',
  gitlab_enterprise_edition: 'https://gitlab.com',
  bitbucket_hosted: 'https://bitbucket.org',
  ado_services: 'https://dev.azure.com',
};

function serializeVcsRepo(repo: VcsRepo): Record<string, unknown> {
  const host = PROVIDER_HOSTS[repo.serviceProvider ?? 'github'] ?? 'https://github.com';
  return {
    branch: repo.branch,
    'display-identifier': repo.identifier,
    identifier: repo.identifier,
    'ingress-submodules': repo.ingressSubmodules,
    'oauth-token-id': repo.oauthTokenId,
    'github-app-installation-id': repo.githubAppInstallationId,
    'repository-http-url': `${host}/${repo.identifier}`,
    'service-provider': repo.serviceProvider,
    'tags-regex': repo.tagsRegex,
    'webhook-url': null,
  };
}

export interface WorkspaceSerializeOptions {
  edition: Edition;
  /** With `include=effective_tag_bindings`: the bindings whose linkage the relationship carries. */
  effectiveTagBindings?: EffectiveTagBinding[];
  /** With `include=outputs`: the current state's outputs whose linkage `outputs` carries. */
  outputs?: WorkspaceOutput[];
  /** The ids of its variables, when the caller may read them (the `vars` relationship). */
  variableIds?: string[];
}

/**
 * The one workspace serialisation (reference 5.8): create, update, read, list and every action
 * that returns a workspace emit exactly this.
 */
export function serializeWorkspace(ws: Workspace, options: WorkspaceSerializeOptions): ResourceObject {
  const id = ws.id;
  const wsPath = `${API_PREFIX}/workspaces/${id}`;
  const org = encodeURIComponent(ws.organizationName);
  const name = encodeURIComponent(ws.name);
  const admin = ws.permissions.canUpdate;
  const read = ws.permissions.canRead;
  const attributes: Record<string, unknown> = {
    name: ws.name,
    description: ws.description,
    actions: { 'is-destroyable': !ws.locked && ws.resourceCount === 0 },
    'allow-destroy-plan': ws.allowDestroyPlan,
    'apply-duration-average': ws.metrics.applyDurationAverage,
    // A hosted-edition attribute: the self-hosted edition omits it (JSON leaves undefined out;
    // a `delete` would turn the object into a slow dictionary for JSON.stringify).
    'assessments-enabled': options.edition === 'hosted' ? ws.assessmentsEnabled : undefined,
    'auto-apply': ws.autoApply,
    'auto-apply-run-trigger': ws.autoApplyRunTrigger,
    'auto-destroy-at': ws.autoDestroyAt,
    'auto-destroy-activity-duration': ws.autoDestroyActivityDuration,
    'auto-destroy-status': null,
    'inherits-project-auto-destroy': ws.inheritsProjectAutoDestroy,
    'created-at': ws.createdAt,
    'updated-at': ws.updatedAt,
    environment: 'default',
    'execution-mode': ws.executionMode,
    'file-triggers-enabled': ws.fileTriggersEnabled,
    'global-remote-state': ws.globalRemoteState,
    'project-remote-state': false,
    'last-assessment-result-at': null,
    'latest-change-at': ws.latestChangeAt,
    locked: ws.locked,
    'locked-reason': ws.lockedReason,
    'locked-at': ws.lockedAt,
    operations: ws.executionMode !== 'local',
    permissions: {
      'can-update': admin,
      'can-destroy': ws.permissions.canDestroy,
      'can-queue-run': ws.permissions.canQueueRun,
      'can-read-run': read,
      'can-read-variable': ws.permissions.canReadVariable,
      'can-update-variable': ws.permissions.canUpdateVariable,
      'can-read-state-versions': ws.permissions.canReadStateVersions,
      'can-read-state-outputs': ws.permissions.canReadStateOutputs,
      'can-create-state-versions': ws.permissions.canCreateStateVersions,
      'can-queue-apply': ws.permissions.canQueueApply,
      'can-lock': ws.permissions.canLock,
      'can-unlock': ws.permissions.canLock,
      'can-force-unlock': ws.permissions.canForceUnlock,
      'can-read-settings': read,
      'can-manage-tags': admin,
      'can-manage-run-tasks': ws.permissions.canManageRunTasks,
      'can-force-delete': ws.permissions.canForceDelete,
      'can-manage-assessments': admin,
      'can-manage-ephemeral-workspaces': false,
      'can-read-assessment-results': read,
      'can-queue-destroy': ws.permissions.canQueueApply,
    },
    'plan-duration-average': ws.metrics.planDurationAverage,
    'policy-check-failures': ws.metrics.policyCheckFailures,
    'queue-all-runs': ws.queueAllRuns,
    'resource-count': ws.resourceCount,
    'run-failures': ws.metrics.runFailures,
    'setting-overwrites': { 'execution-mode': ws.executionModeOverridden, 'agent-pool': ws.executionModeOverridden },
    source: ws.source,
    'source-name': ws.sourceName,
    'source-url': ws.sourceUrl,
    'speculative-enabled': ws.speculativeEnabled,
    'structured-run-output-enabled': ws.structuredRunOutputEnabled,
    'tag-names': ws.tagNames,
    'terraform-version': ws.terraformVersion,
    'trigger-patterns': ws.triggerPatterns,
    'trigger-prefixes': ws.triggerPrefixes,
    'vcs-repo': ws.vcsRepo ? serializeVcsRepo(ws.vcsRepo) : null,
    'vcs-repo-identifier': ws.vcsRepo?.identifier ?? null,
    'working-directory': ws.workingDirectory,
    'workspace-kpis-runs-count': ws.metrics.runsCount,
    // The spec's name for it; go-tfe reads the one above.
    'workspace-kpis-run-count': ws.metrics.runsCount,
  };

  const runLink = (id: string | null) => (id ? toOne('runs', id, `${API_PREFIX}/runs/${id}`) : toOne('runs', null));
  const lockedBy: Relationship = ws.lockedBy
    ? toOne(ws.lockedBy.type, ws.lockedBy.id, `${API_PREFIX}/${ws.lockedBy.type}/${ws.lockedBy.id}`)
    : { data: null };
  const effective: Relationship = linkOnly(`${wsPath}/effective-tag-bindings`);
  if (options.effectiveTagBindings)
    effective.data = options.effectiveTagBindings.map((t) => ({ type: 'effective-tag-bindings', id: t.id }));
  const relationships: Record<string, Relationship> = {
    organization: toOne('organizations', ws.organizationName, `${API_PREFIX}/organizations/${org}`),
    project: toOne('projects', ws.projectId, `${API_PREFIX}/projects/${ws.projectId}`),
    'current-run': runLink(ws.currentRunId),
    'latest-run': runLink(ws.latestRunId),
    'locked-by': lockedBy,
    'ssh-key': ws.sshKeyId ? toOne('ssh-keys', ws.sshKeyId, `${API_PREFIX}/ssh-keys/${ws.sshKeyId}`) : { data: null },
    'agent-pool': toOne(
      'agent-pools',
      ws.agentPoolId,
      ws.agentPoolId ? `${API_PREFIX}/agent-pools/${ws.agentPoolId}` : undefined,
    ),
    'current-state-version': ws.currentStateVersionId
      ? toOne('state-versions', ws.currentStateVersionId, `${wsPath}/current-state-version`)
      : { data: null },
    'current-configuration-version': ws.currentConfigurationVersionId
      ? toOne(
          'configuration-versions',
          ws.currentConfigurationVersionId,
          `${API_PREFIX}/configuration-versions/${ws.currentConfigurationVersionId}`,
        )
      : { data: null },
    'current-assessment-result':
      options.edition === 'hosted' && ws.currentAssessmentResultId
        ? toOne('assessment-results', ws.currentAssessmentResultId, `${wsPath}/current-assessment-result`)
        : { data: null },
    readme: { data: null },
    outputs: { data: (options.outputs ?? []).map((o) => ({ type: 'workspace-outputs', id: o.id })) },
    vars: { data: (options.variableIds ?? []).map((id) => ({ type: 'vars', id })) },
    'remote-state-consumers': linkOnly(`${wsPath}/relationships/remote-state-consumers`),
    'tag-bindings': linkOnly(`${wsPath}/tag-bindings`),
    'effective-tag-bindings': effective,
  };
  if (options.edition === 'self-hosted') {
    relationships['data-retention-policy'] = ws.dataRetentionPolicy
      ? { data: ws.dataRetentionPolicy, links: { related: `${wsPath}/relationships/data-retention-policy` } }
      : { data: null };
  }
  return {
    id,
    type: 'workspaces',
    attributes,
    relationships,
    links: {
      self: `${API_PREFIX}/organizations/${org}/workspaces/${name}`,
      'self-html': `/app/${org}/workspaces/${name}`,
    },
  };
}

/** An `effective-tag-bindings` resource: own ones carry no `links` member at all. */
export function serializeEffectiveTagBinding(t: EffectiveTagBinding): ResourceObject {
  const obj: ResourceObject = { id: t.id, type: 'effective-tag-bindings', attributes: { key: t.key, value: t.value } };
  if (t.inheritedFrom) obj.links = { 'inherited-from': `${API_PREFIX}/projects/${t.inheritedFrom}` };
  return obj;
}

/**
 * A `workspace-outputs` resource: an output of the current state (sensitive values hidden), with
 * the coarse `output-type` (`string`, `number`, `boolean`, `array`, `object`) and the id of the
 * state version output it is.
 */
export function serializeOutput(o: WorkspaceOutput): ResourceObject {
  return {
    id: o.id,
    type: 'workspace-outputs',
    attributes: { name: o.name, sensitive: o.sensitive, 'output-type': o.type, value: o.value },
  };
}
