import type { ExecutionMode } from '../organizations/organization.js';

/**
 * Health assessments (hosted edition): HCP Terraform runs them only for workspaces in remote or
 * agent execution mode whose engine version is 0.15.4 or later (its "Health" documentation,
 * "Workspace requirements"). The version may be a constraint: it qualifies unless every version
 * it allows is older than 0.15.4.
 */
const MINIMUM: Version = [0, 15, 4];

type Version = [number, number, number];

const EXACT = /^(\d+)\.(\d+)\.(\d+)(-\S+)?$/;
const PART = /^(~>|>=|<=|!=|=|>|<)?\s*(\d+)(?:\.(\d+))?(?:\.(\d+))?(-\S+)?$/;

function compare(a: Version, b: Version): number {
  for (let i = 0; i < 3; i++) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

/** Whether no version at or above 0.15.4 satisfies one part of a constraint. */
function excludesMinimum(part: string): boolean {
  const m = PART.exec(part.trim());
  if (!m) return false;
  const op = m[1] ?? '=';
  const given = [m[3], m[4]].filter((x) => x !== undefined).length;
  const v: Version = [Number(m[2]), Number(m[3] ?? 0), Number(m[4] ?? 0)];
  const prerelease = m[5] !== undefined;
  switch (op) {
    case '=':
      return compare(v, MINIMUM) < 0 || (prerelease && compare(v, MINIMUM) === 0);
    case '<':
      return compare(v, MINIMUM) <= 0;
    case '<=':
      return compare(v, MINIMUM) < 0;
    case '~>': {
      // ~> 0.15.2 allows < 0.16.0; ~> 0.15 allows < 1.0.0.
      const ceiling: Version = given === 2 ? [v[0], v[1] + 1, 0] : [v[0] + 1, 0, 0];
      return compare(ceiling, MINIMUM) <= 0;
    }
    default:
      return false;
  }
}

/** Whether a workspace with this engine version (exact or constraint) can run assessments. */
export function versionSupportsAssessments(version: string): boolean {
  const exact = EXACT.exec(version.trim());
  if (exact) {
    const v: Version = [Number(exact[1]), Number(exact[2]), Number(exact[3])];
    const c = compare(v, MINIMUM);
    return c > 0 || (c === 0 && exact[4] === undefined);
  }
  return !version.split(',').some(excludesMinimum);
}

/** Why a workspace may not have assessments enabled, or null when it may. */
export function assessmentsProblem(mode: ExecutionMode, version: string): string | null {
  if (mode !== 'remote' && mode !== 'agent')
    return 'Assessments enabled is only available for workspaces in remote or agent execution mode';
  if (!versionSupportsAssessments(version))
    return 'Assessments enabled is only available for workspaces using Terraform version 0.15.4 or later';
  return null;
}
