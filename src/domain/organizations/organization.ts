import * as v from 'valibot';
import { bool, checkAttributes, int, nullable, oneOf, opt, str, text } from '../common/attributes.js';
import { TEXT_LIMITS as L } from '../common/limits.js';
import { Problems } from '../common/errors.js';
import { toOneId } from '../common/relationships.js';

export const EXECUTION_MODES = ['remote', 'local', 'agent'] as const;
export type ExecutionMode = (typeof EXECUTION_MODES)[number];

export const AUTH_POLICIES = ['password', 'two_factor_mandatory'] as const;

export interface Organization {
  id: string;
  name: string;
  email: string;
  allowForceDeleteWorkspaces: boolean;
  assessmentsEnforced: boolean;
  defaultExecutionMode: ExecutionMode;
  /** The pool of the `agent` default mode; null otherwise. */
  defaultAgentPoolId: string | null;
  costEstimationEnabled: boolean;
  sessionTimeout: number | null;
  sessionRemember: number | null;
  collaboratorAuthPolicy: string;
  sendPassingStatusesForUntriggeredSpeculativePlans: boolean;
  aggregatedCommitStatusEnabled: boolean;
  speculativePlanManagementEnabled: boolean;
  /** The SAML role of the owners team, stored and read back as written; null when not set. */
  ownersTeamSamlRoleId: string | null;
  createdAt: string;
  defaultProjectId: string;
  /**
   * The organization's default data retention policy (type and id) or null; undefined in the
   * hosted edition, where the relationship does not exist.
   */
  dataRetentionPolicy?: { type: string; id: string } | null;
  permissions: OrganizationPermissions;
}

export interface OrganizationPermissions {
  canUpdate: boolean;
  canDestroy: boolean;
  canCreateWorkspace: boolean;
  canCreateProject: boolean;
  canManageTokens: boolean;
  canCreateTeam: boolean;
  canManageRunTasks: boolean;
  canManageAgentPools: boolean;
  canManageVcs: boolean;
  canReadAuditTrail: boolean;
  canTraverse: boolean;
}

/** The writable organization settings, all optional; `name`/`email` are required on create. */
export interface OrganizationInput {
  name?: string;
  email?: string;
  allowForceDeleteWorkspaces?: boolean;
  assessmentsEnforced?: boolean;
  defaultExecutionMode?: ExecutionMode;
  /** From `relationships.default-agent-pool`: an id, `null` to clear, undefined to keep. */
  defaultAgentPoolId?: string | null;
  costEstimationEnabled?: boolean;
  sessionTimeout?: number | null;
  sessionRemember?: number | null;
  collaboratorAuthPolicy?: string;
  sendPassingStatusesForUntriggeredSpeculativePlans?: boolean;
  aggregatedCommitStatusEnabled?: boolean;
  speculativePlanManagementEnabled?: boolean;
  /** `null` (or an empty string) clears it. */
  ownersTeamSamlRoleId?: string | null;
}

const schema = v.looseObject({
  name: opt(str()),
  email: opt(text(L.email)),
  'allow-force-delete-workspaces': opt(bool()),
  'assessments-enforced': opt(bool()),
  'default-execution-mode': opt(oneOf(EXECUTION_MODES)),
  'cost-estimation-enabled': opt(bool()),
  'session-timeout': nullable(int()),
  'session-remember': nullable(int()),
  'collaborator-auth-policy': opt(oneOf(AUTH_POLICIES)),
  'send-passing-statuses-for-untriggered-speculative-plans': opt(bool()),
  'aggregated-commit-status-enabled': opt(bool()),
  'speculative-plan-management-enabled': opt(bool()),
  'owners-team-saml-role-id': nullable(text(L.ownersTeamSamlRoleId)),
});

const ORG_NAME = /^[A-Za-z0-9_-]+$/;
const EMAIL = /^[^\s@]+@[^\s@]+$/;

export function validOrganizationName(name: string): boolean {
  return ORG_NAME.test(name) && name.length <= 255;
}

/**
 * Validates the attributes (and the `default-agent-pool` relationship) of an organization create
 * (`mode: 'create'`) or update body.
 */
export function parseOrganizationAttributes(
  attributes: unknown,
  mode: 'create' | 'update',
  relationships: Record<string, unknown> = {},
): OrganizationInput {
  const a = checkAttributes(schema, attributes);
  const problems = new Problems();
  const defaultAgentPoolId = toOneId(relationships, 'default-agent-pool', 'agent-pools', problems);
  if (a.name === undefined) {
    if (mode === 'create') problems.add('/data/attributes/name', "Name can't be blank");
  } else if (!validOrganizationName(a.name)) {
    problems.add('/data/attributes/name', 'Name may only contain letters, numbers, "-" and "_"');
  }
  if (a.email === undefined) {
    if (mode === 'create') problems.add('/data/attributes/email', "Email can't be blank");
  } else if (!EMAIL.test(a.email)) {
    problems.add('/data/attributes/email', 'Email is invalid');
  }
  for (const key of ['session-timeout', 'session-remember'] as const) {
    const n = a[key];
    if (typeof n === 'number' && n < 1) problems.add(`/data/attributes/${key}`, `${key} must be greater than 0`);
  }
  problems.throwIfAny();
  return {
    name: a.name,
    email: a.email,
    allowForceDeleteWorkspaces: a['allow-force-delete-workspaces'],
    assessmentsEnforced: a['assessments-enforced'],
    defaultExecutionMode: a['default-execution-mode'],
    costEstimationEnabled: a['cost-estimation-enabled'],
    sessionTimeout: a['session-timeout'],
    sessionRemember: a['session-remember'],
    collaboratorAuthPolicy: a['collaborator-auth-policy'],
    defaultAgentPoolId,
    sendPassingStatusesForUntriggeredSpeculativePlans: a['send-passing-statuses-for-untriggered-speculative-plans'],
    aggregatedCommitStatusEnabled: a['aggregated-commit-status-enabled'],
    speculativePlanManagementEnabled: a['speculative-plan-management-enabled'],
    ownersTeamSamlRoleId:
      a['owners-team-saml-role-id'] === undefined ? undefined : a['owners-team-saml-role-id'] || null,
  };
}
