/**
 * The entitlement set of an organization (`GET /organizations/:org/entitlement-set`). HCP
 * Terraform derives it from the organization's subscription; berth has no plans, so every
 * organization gets the same set: true for what berth does, false for what it does not, so that
 * clients never wait for what will not come (the Terraform CLI and go-tfe wait for a run's cost
 * estimate and policy checks when the set says `cost-estimation`, `sentinel` or
 * `policy-enforcement`; berth has no cost estimates, policies, run tasks, VCS connections, SSO or
 * Waypoint). berth does: agents, the audit trail, the private module registry, state storage,
 * teams, and `operations`. The Terraform CLI (`cloud` block and `remote` backend) reads `operations`: when
 * false it runs every operation locally and keeps the state in berth, whatever the workspace's
 * execution mode (HCP's state-storage-only organizations answer so); when true it asks for a
 * remote run in any workspace whose execution mode is not `local` (`remote`, the default, or
 * `agent`). So `operations` says whether runs of the organization are executed: true when this
 * instance executes runs (`berth serve` does when it finds a terraform binary); without an
 * executor (no binary, --no-execute-runs), true only when the organization sends runs to agents
 * (`berth agent`: its default mode, a project's or a workspace's own is `agent`), so that the
 * CLI's runs in those workspaces reach their agents; false otherwise, so that the CLI is never
 * sent to a remote run nobody executes. `agents` is always true: any berth takes agents, with or
 * without an executor of its own.
 */
export const ENTITLEMENTS = {
  agents: true,
  'audit-logging': true,
  'configuration-designer': false,
  'cost-estimation': false,
  'global-run-tasks': false,
  'module-tests-generation': false,
  operations: false,
  'policy-enforcement': false,
  'private-module-registry': true,
  'private-policy-agents': false,
  'private-run-tasks': false,
  'private-vcs': false,
  'run-tasks': false,
  'self-serve-billing': false,
  sentinel: false,
  sso: false,
  'state-storage': true,
  teams: true,
  'vcs-integrations': false,
  'waypoint-actions': false,
  'waypoint-templates-and-addons': false,
} as const satisfies Record<string, boolean>;

/** What executes this organization's runs, as this instance found it (not stored). */
export interface InstanceCapabilities {
  /** `berth serve` with a usable terraform binary (and not --no-execute-runs). */
  executesRuns: boolean;
  /** The organization sends runs to agents (see above); only read when `executesRuns` is false. */
  runsOnAgents?: boolean;
}

/** The entitlement set: `operations` is whether the organization's runs are executed (above). */
export function entitlementsFor(capabilities: InstanceCapabilities): Record<keyof typeof ENTITLEMENTS, boolean> {
  return { ...ENTITLEMENTS, operations: capabilities.executesRuns || capabilities.runsOnAgents === true };
}
