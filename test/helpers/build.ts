import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** vitest global setup: build the CLI bundle once, so CLI and e2e tests run the real binary. */
export default function setup(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: 'inherit' });
}
