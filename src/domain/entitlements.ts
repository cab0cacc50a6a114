/**
 * The entitlement set of an organization (`GET /organizations/:org/entitlement-set`). HCP
 * Terraform derives it from the organization's subscription; berth has no plans, so every
 * organization gets the same set: that of a fully entitled organization, except `operations`.
 * Clients read it to decide what to offer. The Terraform CLI (`cloud` block and `remote`
 * backend) reads `operations`: when true it asks for a remote run in any workspace whose
 * execution mode is `remote` (the default); when false it runs every operation locally and keeps
 * the state in berth. `operations` is an instance capability, not a constant: true when this
 * instance executes runs (`berth serve` does when it finds a terraform binary), false otherwise
 * (no binary, or --no-execute-runs), so that the CLI is never sent to a remote run nobody executes
 * and runs everything locally instead (HCP's state-storage-only organizations answer so too).
 */
export const ENTITLEMENTS = {
  agents: true,
  'audit-logging': true,
  'configuration-designer': true,
  'cost-estimation': true,
  'global-run-tasks': true,
  'module-tests-generation': false,
  operations: false,
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

/** What the instance can do, as `berth serve` found at start-up (not stored). */
export interface InstanceCapabilities {
  /** `berth serve` with a usable terraform binary (and not --no-execute-runs). */
  executesRuns: boolean;
}

/** The entitlement set of this instance: `operations` is whether it executes runs. */
export function entitlementsFor(capabilities: InstanceCapabilities): Record<keyof typeof ENTITLEMENTS, boolean> {
  return { ...ENTITLEMENTS, operations: capabilities.executesRuns };
}
