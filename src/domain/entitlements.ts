/**
 * The entitlement set of an organization (`GET /organizations/:org/entitlement-set`). HCP
 * Terraform derives it from the organization's subscription; berth has no plans, so every
 * organization gets the same set: that of a fully entitled organization, as go-tfe expects of
 * one. Clients read it to decide what to offer; the Terraform CLI reads `operations` (false would
 * force every run to be local).
 */
export const ENTITLEMENTS = {
  agents: true,
  'audit-logging': true,
  'configuration-designer': true,
  'cost-estimation': true,
  'global-run-tasks': true,
  'module-tests-generation': false,
  operations: true,
  'policy-enforcement': true,
  'private-module-registry': true,
  'private-policy-agents': true,
  'private-run-tasks': true,
  'private-vcs': true,
  'run-tasks': true,
  'self-serve-billing': false,
  sentinel: true,
  sso: true,
  'state-storage': true,
  teams: true,
  'vcs-integrations': true,
  'waypoint-actions': false,
  'waypoint-templates-and-addons': true,
} as const satisfies Record<string, boolean>;
