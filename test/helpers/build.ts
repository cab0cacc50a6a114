import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/**
 * vitest global setup: build the CLI bundle once, so CLI and e2e tests run the real binary.
 * BERTH_TEST_NO_BUILD=1 keeps the bundle already built (tests of services and the API that start
 * no process, run while the tree is being edited elsewhere).
 */
export default function setup(): void {
  if (process.env.BERTH_TEST_NO_BUILD === '1') return;
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
}
