import type { StateVersion } from '../../domain/state-version.js';
import { API_PREFIX, toOne, type ResourceObject } from '../documents.js';

/**
 * A state version. The hosted-state URLs are absolute (clients PUT and GET them directly, without
 * a token: the secret in the URL authorizes, like a signed URL), built on the request's origin.
 */
export function serializeStateVersion(sv: StateVersion, origin: string): ResourceObject {
  const content = `${origin}${API_PREFIX}/state-versions/${sv.id}/content?secret=${sv.urlSecret}`;
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
      'resources-processed': sv.status === 'finalized',
      'resource-count': sv.resourceCount,
      'terraform-version': sv.terraformVersion,
      'hosted-state-download-url': sv.status === 'finalized' ? content : null,
      'hosted-state-upload-url': sv.status === 'pending' ? content : null,
      'hosted-json-state-download-url': null,
    },
    relationships: {
      workspace: toOne('workspaces', sv.workspaceId, `${API_PREFIX}/workspaces/${sv.workspaceId}`),
      run: { data: null },
      outputs: { data: [] },
    },
    links: { self: `${API_PREFIX}/state-versions/${sv.id}` },
  };
}
