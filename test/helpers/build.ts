import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

function newestMtime(path: string): number {
  const s = statSync(path);
  if (!s.isDirectory()) return s.mtimeMs;
  return Math.max(0, ...readdirSync(path).map((name) => newestMtime(join(path, name))));
}

/**
 * vitest global setup: the CLI tests run the built bundle, so build it once before the run when
 * it is missing or older than the sources.
 */
export default function setup(): void {
  const bundle = join(ROOT, 'dist', 'cli.js');
  const manifest = join(ROOT, 'oclif.manifest.json');
  const built = existsSync(bundle) && existsSync(manifest) ? Math.min(statSync(bundle).mtimeMs, statSync(manifest).mtimeMs) : 0;
  const sources = Math.max(newestMtime(join(ROOT, 'src')), statSync(join(ROOT, 'package.json')).mtimeMs, statSync(join(ROOT, 'scripts', 'build.mjs')).mtimeMs);
  if (built > sources) return;
  execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' });
}
