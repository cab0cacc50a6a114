import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';

/**
 * The terraform binary that executes runs (`serve --execute-runs`, `berth agent`): the one given,
 * else `terraform` on the PATH; null when it is not an executable file (or none is on the PATH).
 */
export function findTerraformBinary(given: string | undefined): string | null {
  const candidates = given
    ? [given]
    : (process.env.PATH ?? '')
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
