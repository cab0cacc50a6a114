import { entitlementsFor, type InstanceCapabilities } from '../../domain/organizations/entitlements.js';
import type { Organization } from '../../domain/organizations/organization.js';
import { API_PREFIX, toOne, type ResourceObject } from '../documents.js';

/** berth has no module registry: the testable-module allowance of HCP Terraform's free tier. */
const REMAINING_TESTABLE_COUNT = 5;

export function serializeOrganization(org: Organization): ResourceObject {
  const self = `${API_PREFIX}/organizations/${encodeURIComponent(org.name)}`;
  const p = org.permissions;
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
      'send-passing-statuses-for-untriggered-speculative-plans': org.sendPassingStatusesForUntriggeredSpeculativePlans,
      'aggregated-commit-status-enabled': org.aggregatedCommitStatusEnabled,
      'speculative-plan-management-enabled': org.speculativePlanManagementEnabled,
      'saml-enabled': false,
      'owners-team-saml-role-id': org.ownersTeamSamlRoleId,
      'two-factor-conformant': true,
      'is-unified': false,
      'trial-expires-at': null,
      'remaining-testable-count': REMAINING_TESTABLE_COUNT,
      permissions: {
        'can-update': p.canUpdate,
        'can-destroy': p.canDestroy,
        'can-create-workspace': p.canCreateWorkspace,
        'can-create-project': p.canCreateProject,
        'can-manage-tokens': p.canManageTokens,
        'can-create-team': p.canCreateTeam,
        'can-create-workspace-migration': p.canUpdate,
        'can-deploy-no-code-modules': p.canCreateWorkspace,
        'can-manage-no-code-modules': p.canUpdate,
        'can-manage-auditing': p.canReadAuditTrail,
        'can-manage-run-tasks': p.canManageRunTasks,
        'can-traverse': p.canTraverse,
        'can-update-agent-pools': p.canManageAgentPools,
        'can-update-api-token': p.canManageTokens,
        'can-update-oauth': p.canManageVcs,
        'can-update-sentinel': p.canUpdate,
      },
    },
    relationships: {
      'default-project': toOne('projects', org.defaultProjectId, `${API_PREFIX}/projects/${org.defaultProjectId}`),
      'default-agent-pool': toOne(
        'agent-pools',
        org.defaultAgentPoolId,
        org.defaultAgentPoolId ? `${API_PREFIX}/agent-pools/${org.defaultAgentPoolId}` : undefined,
      ),
      'entitlement-set': {
        data: { id: org.id, type: 'entitlement-sets' },
        links: { related: `${self}/entitlement-set` },
      },
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

/** The organization's `entitlement-sets` resource; its id is the organization's external id. */
export function serializeEntitlements(org: Organization, capabilities: InstanceCapabilities): ResourceObject {
  return {
    id: org.id,
    type: 'entitlement-sets',
    attributes: entitlementsFor(capabilities),
    links: { self: `${API_PREFIX}/entitlement-sets/${org.id}` },
  };
}
