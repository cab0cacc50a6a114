import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';

/** vitest globalSetup: builds the CLI bundle once (dist/ and oclif.manifest.json) for test/cli. */
export default function setup(): void {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
}
