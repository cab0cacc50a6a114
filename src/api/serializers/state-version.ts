import type { StateVersion, StateVersionOutput, WorkspaceResource } from '../../domain/state/state-version.js';
import { API_PREFIX, toOne, type ResourceObject } from '../documents.js';

/**
 * A state version. The hosted-state URLs are absolute (clients PUT and GET them directly, without
 * a token: the URL is signed and expires), built on the request's origin.
 */
export function serializeStateVersion(sv: StateVersion, origin: string): ResourceObject {
  const base = `${origin}${API_PREFIX}/state-versions/${sv.id}`;
  const url = (path: string, query: string | null) => (query === null ? null : `${base}/${path}?${query}`);
  const processed = sv.status !== 'pending';
  return {
    id: sv.id,
    type: 'state-versions',
    attributes: {
      'created-at': sv.createdAt,
      serial: sv.serial,
      lineage: sv.lineage,
      md5: sv.md5,
      size: sv.size,
      status: sv.status,
      intermediate: sv.intermediate,
      current: sv.current,
      'resources-processed': processed,
      'resource-count': sv.resourceCount,
      'billable-rum-count': processed ? sv.resourceCount : null,
      'state-version': sv.formatVersion,
      'terraform-version': sv.terraformVersion,
      modules: sv.summary?.modules ?? null,
      providers: sv.summary?.providers ?? null,
      resources: sv.summary?.resources ?? null,
      'hosted-state-download-url': url('content', sv.urls.stateDownload),
      'hosted-state-upload-url': url('content', sv.urls.stateUpload),
      'hosted-json-state-download-url': url('json-content', sv.urls.jsonDownload),
      'hosted-json-state-upload-url': url('json-content', sv.urls.jsonUpload),
      'vcs-commit-sha': null,
      'vcs-commit-url': null,
    },
    relationships: {
      workspace: toOne('workspaces', sv.workspaceId, `${API_PREFIX}/workspaces/${sv.workspaceId}`),
      run: sv.runId ? toOne('runs', sv.runId, `${API_PREFIX}/runs/${sv.runId}`) : { data: null },
      outputs: { data: sv.outputIds.map((id) => ({ type: 'state-version-outputs', id })) },
      // HCP Terraform's: the version a rollback copied (PATCH /workspaces/:id/state-versions), else null.
      'rollback-state-version': sv.rollbackOfId
        ? toOne('state-versions', sv.rollbackOfId, `${API_PREFIX}/state-versions/${sv.rollbackOfId}`)
        : { data: null },
    },
    links: { self: `${API_PREFIX}/state-versions/${sv.id}` },
  };
}

/** A `state-version-outputs` resource (its value `null` where hidden). */
export function serializeStateVersionOutput(o: StateVersionOutput): ResourceObject {
  return {
    id: o.id,
    type: 'state-version-outputs',
    attributes: {
      name: o.name,
      sensitive: o.sensitive,
      type: o.type,
      value: o.value,
      'detailed-type': o.detailedType,
    },
    links: { self: `${API_PREFIX}/state-version-outputs/${o.id}` },
  };
}

/** A `resources` resource: an instance of a managed resource in a workspace's current state. */
export function serializeWorkspaceResource(r: WorkspaceResource): ResourceObject {
  return {
    id: r.id,
    type: 'resources',
    attributes: {
      address: r.address,
      name: r.name,
      'created-at': r.date,
      'updated-at': r.date,
      module: r.module,
      provider: r.provider,
      'provider-type': r.providerType,
      'modified-by-state-version-id': r.stateVersionId,
      'name-index': r.nameIndex,
    },
  };
}
