import { execFileSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * The terraform binary `berth serve` executes runs with: where it is and what version it says it
 * is, asked once at start-up.
 */

/** `given` if it is an executable file, else (nothing given) the first `terraform` of `path`; null when none. */
export function executableFile(given: string | undefined, path: string): string | null {
  const candidates =
    given !== undefined
      ? [given]
      : path
          .split(delimiter)
          .filter(Boolean)
          .map((d) => join(d, 'terraform'));
  for (const file of candidates) {
    try {
      if (statSync(file).isFile()) {
        accessSync(file, constants.X_OK);
        return file;
      }
    } catch {
      // not there, or not executable
    }
  }
  return null;
}

/** The binary's version (`terraform version -json`), or null when it does not answer one. */
export function terraformVersion(binary: string): string | null {
  try {
    const out = execFileSync(binary, ['version', '-json'], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', CHECKPOINT_DISABLE: '1' },
      stdio: ['ignore', 'pipe', 'ignore'],
      timeout: 30_000,
    });
    const v = (JSON.parse(out.toString()) as { terraform_version?: unknown }).terraform_version;
    return typeof v === 'string' && /^\d+\.\d+\.\d+/.test(v) ? v : null;
  } catch {
    return null;
  }
}

/** The binary given, else `terraform` on the PATH (`berth agent`); null when none is an executable file. */
export function findTerraformBinary(given: string | undefined): string | null {
  return executableFile(given, process.env.PATH ?? '');
}
