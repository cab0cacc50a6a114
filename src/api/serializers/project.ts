import type { Project } from '../../domain/projects/project.js';
import { API_PREFIX, linkOnly, toOne, type ResourceIdentifier, type ResourceObject } from '../documents.js';

/**
 * The one project serialisation: create, read and list emit exactly this. With
 * `effectiveTagBindings` (`include=effective_tag_bindings`) the `effective-tag-bindings`
 * relationship also carries the identifiers of the bindings, which go in `included`.
 */
export function serializeProject(
  p: Project,
  options: { effectiveTagBindings?: ResourceIdentifier[] } = {},
): ResourceObject {
  const self = `${API_PREFIX}/projects/${p.id}`;
  return {
    id: p.id,
    type: 'projects',
    attributes: {
      name: p.name,
      description: p.description,
      'created-at': p.createdAt,
      'auto-destroy-activity-duration': p.autoDestroyActivityDuration,
      'default-execution-mode': p.defaultExecutionMode,
      'setting-overwrites': {
        'default-execution-mode': p.executionOverridden,
        'default-agent-pool': p.executionOverridden,
      },
      'workspace-count': p.workspaceCount,
      'team-count': p.teamCount,
      'is-default': p.isDefault,
      permissions: {
        'can-read': p.permissions.canRead,
        'can-update': p.permissions.canUpdate,
        'can-destroy': p.permissions.canDestroy,
        'can-create-workspace': p.permissions.canCreateWorkspace,
        'can-move-workspace': p.permissions.canMoveWorkspace,
        'can-manage-tags': p.permissions.canManageTags,
        'can-manage-teams': p.permissions.canManageTeams,
      },
    },
    relationships: {
      organization: toOne(
        'organizations',
        p.organizationName,
        `${API_PREFIX}/organizations/${encodeURIComponent(p.organizationName)}`,
      ),
      'default-agent-pool': toOne(
        'agent-pools',
        p.defaultAgentPoolId,
        p.defaultAgentPoolId ? `${API_PREFIX}/agent-pools/${p.defaultAgentPoolId}` : undefined,
      ),
      'tag-bindings': linkOnly(`${self}/tag-bindings`),
      'effective-tag-bindings': options.effectiveTagBindings
        ? { data: options.effectiveTagBindings, links: { related: `${self}/effective-tag-bindings` } }
        : linkOnly(`${self}/effective-tag-bindings`),
    },
    links: { self },
  };
}
