/**
 * The engine version of a workspace (`terraform-version` on the wire): an exact released version
 * or a version constraint such as `~> 1.0.0`. berth knows the release lines below (each with its
 * highest patch release), from 0.1 on, as HCP Terraform accepts old releases too (go-tfe sets
 * 0.10.0); an exact version outside them (or a word such as `nonexisting`) is rejected.
 */
const RELEASE_LINES: [string, number][] = [
  ['0.1', 1],
  ['0.2', 2],
  ['0.3', 7],
  ['0.4', 2],
  ['0.5', 3],
  ['0.6', 16],
  ['0.7', 13],
  ['0.8', 8],
  ['0.9', 11],
  ['0.10', 8],
  ['0.11', 15],
  ['0.12', 31],
  ['0.13', 7],
  ['0.14', 11],
  ['0.15', 5],
  ['1.0', 11],
  ['1.1', 9],
  ['1.2', 9],
  ['1.3', 10],
  ['1.4', 7],
  ['1.5', 7],
  ['1.6', 6],
  ['1.7', 5],
  ['1.8', 5],
  ['1.9', 8],
  ['1.10', 5],
  ['1.11', 4],
  ['1.12', 2],
  ['1.13', 3],
];

/**
 * The default for new workspaces on an instance that does not execute runs: the newest known
 * release. One that executes runs gives its binary's version instead (defaultEngineVersion).
 */
export const LATEST_ENGINE_VERSION = (() => {
  const [line, max] = RELEASE_LINES[RELEASE_LINES.length - 1];
  return `${line}.${max}`;
})();

const EXACT = /^(\d+)\.(\d+)\.(\d+)(?:-([0-9A-Za-z.-]+))?$/;
const PARTIAL = /^\d+(?:\.\d+){0,2}(?:-[0-9A-Za-z.-]+)?$/;
const CONSTRAINT_PART = /^(~>|>=|<=|!=|=|>|<)\s*(\S+)$/;

/** Whether `value` is a release berth knows (pre-releases of a known line are accepted). */
export function isKnownRelease(value: string): boolean {
  const m = EXACT.exec(value);
  if (!m) return false;
  const line = `${Number(m[1])}.${Number(m[2])}`;
  const found = RELEASE_LINES.find(([l]) => l === line);
  if (!found) return false;
  if (m[4] !== undefined) return Number(m[3]) <= found[1] + 1;
  return Number(m[3]) <= found[1];
}

/** A new workspace's terraform-version: the executor binary's version when there is one, else the newest known. */
export function defaultEngineVersion(executorVersion: string | undefined): string {
  return executorVersion ?? LATEST_ENGINE_VERSION;
}

/**
 * An exact known version, `latest`, or a constraint: comma-separated `OP VERSION` parts.
 * `executorVersion` (the executor binary's version) is accepted too, even when it is newer than
 * the releases listed here.
 */
export function isValidEngineVersion(value: string, executorVersion?: string): boolean {
  const v = value.trim();
  if (v === '') return false;
  // HCP's moving target: the newest version the executor has.
  if (v === 'latest') return true;
  if (executorVersion !== undefined && v === executorVersion) return true;
  if (EXACT.test(v)) return isKnownRelease(v);
  const parts = v.split(',').map((p) => p.trim());
  return parts.every((p) => {
    const m = CONSTRAINT_PART.exec(p);
    return m !== null && PARTIAL.test(m[2]);
  });
}
