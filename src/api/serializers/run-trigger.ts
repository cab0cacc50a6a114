import type { RunTrigger } from '../../domain/workspaces/run-triggers.js';
import { API_PREFIX, toOne, type ResourceObject } from '../documents.js';

/** A `run-triggers` resource, as HCP answers it: both ends' names, `workspace` and `sourceable`. */
export function serializeRunTrigger(t: RunTrigger): ResourceObject {
  return {
    id: t.id,
    type: 'run-triggers',
    attributes: {
      'workspace-name': t.workspaceName,
      'sourceable-name': t.sourceableName,
      'created-at': t.createdAt,
    },
    relationships: {
      workspace: toOne('workspaces', t.workspaceId),
      sourceable: toOne('workspaces', t.sourceableId),
    },
    links: { self: `${API_PREFIX}/run-triggers/${t.id}` },
  };
}
