import type { Organization } from '../../domain/organization.js';
import { API_PREFIX, toOne, type ResourceObject } from '../documents.js';

export function serializeOrganization(org: Organization): ResourceObject {
  const self = `${API_PREFIX}/organizations/${encodeURIComponent(org.name)}`;
  return {
    id: org.name,
    type: 'organizations',
    attributes: {
      name: org.name,
      email: org.email,
      'external-id': org.id,
      'created-at': org.createdAt,
      'allow-force-delete-workspaces': org.allowForceDeleteWorkspaces,
      'assessments-enforced': org.assessmentsEnforced,
      'default-execution-mode': org.defaultExecutionMode,
      'cost-estimation-enabled': org.costEstimationEnabled,
      'session-timeout': org.sessionTimeout,
      'session-remember': org.sessionRemember,
      'collaborator-auth-policy': org.collaboratorAuthPolicy,
      'saml-enabled': false,
      'two-factor-conformant': true,
      permissions: {
        'can-update': org.permissions.canUpdate,
        'can-destroy': org.permissions.canDestroy,
        'can-create-workspace': org.permissions.canCreateWorkspace,
        'can-create-project': org.permissions.canCreateProject,
        'can-manage-tokens': org.permissions.canManageTokens,
      },
    },
    relationships: {
      'default-project': toOne('projects', org.defaultProjectId, `${API_PREFIX}/projects/${org.defaultProjectId}`),
      'default-agent-pool': toOne('agent-pools', null),
      ...(org.dataRetentionPolicy === undefined
        ? {}
        : {
            'data-retention-policy': org.dataRetentionPolicy
              ? { data: org.dataRetentionPolicy, links: { related: `${self}/relationships/data-retention-policy` } }
              : { data: null },
          }),
    },
    links: { self },
  };
}
