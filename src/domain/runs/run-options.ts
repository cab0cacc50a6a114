import { invalid } from '../common/errors.js';

/**
 * Run attributes that HCP Terraform takes and berth checks rather than drops: `policy-paths`
 * (berth evaluates no policies) and `terraform-version` (a plan-only run's Terraform version).
 */

const POLICY_PATHS = '/data/attributes/policy-paths';
const TERRAFORM_VERSION = '/data/attributes/terraform-version';

/**
 * `policy-paths` (go-tfe's and the Terraform CLI's, for policies kept with the configuration):
 * berth evaluates no policies (its entitlement set says `policy-enforcement` false), so a run that
 * names some is refused (422) rather than planned as if they had passed. None (absent, null, [])
 * asks for nothing.
 */
export function refusePolicyPaths(value: unknown): void {
  if (value === undefined || value === null) return;
  if (!Array.isArray(value) || value.some((p) => typeof p !== 'string'))
    throw invalid(POLICY_PATHS, 'must be a list of paths');
  if (value.length > 0)
    throw invalid(
      POLICY_PATHS,
      'berth evaluates no policies (its entitlement set says policy-enforcement false): a run cannot name policy paths',
    );
}

/** An exact Terraform version: `1.11.4`, `1.12.0-rc1` (no constraint, no `latest`). */
const EXACT_VERSION = /^\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?$/;

/**
 * The `terraform-version` of a run, checked (null: none asked; the workspace's applies). As HCP:
 * only a plan-only run takes one ("often used to test whether an upgrade would succeed"), and it
 * must be an exact version. `executorVersion` is the version of the terraform binary that will
 * execute the run, when this server executes it and knows it: any other is refused (422), as
 * berth executes with one binary and a run would otherwise end errored for a version it cannot
 * run. Without one (an agent executes the run), the agent refuses a version it lacks when it
 * claims the run, which then ends errored saying so.
 */
export function runTerraformVersion(
  value: string | null | undefined,
  planOnly: boolean,
  executorVersion: string | null,
): string | null {
  const version = value?.trim() ?? '';
  if (version === '') return null;
  if (!planOnly)
    throw invalid(
      TERRAFORM_VERSION,
      'terraform-version is only valid for plan-only runs (plan-only: true, or a speculative configuration version)',
    );
  if (!EXACT_VERSION.test(version))
    throw invalid(
      TERRAFORM_VERSION,
      `must be an exact Terraform version, such as 1.11.4 (not ${JSON.stringify(version)})`,
    );
  if (executorVersion !== null && version !== executorVersion)
    throw invalid(
      TERRAFORM_VERSION,
      `berth executes this workspace's runs with Terraform ${executorVersion} only: a run cannot ask for ${version}`,
    );
  return version;
}
