#!/usr/bin/env node
// `npm run bench`: every benchmark, one after the other, each in its own process. memory.mjs
// runs the serve-read and write-rate loads against one serve process (their lines appear again
// there) before it reads its resident memory. Pass --smoke for the tiny sizes.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { ROOT } from './lib.mjs';

const SCRIPTS = [
  'cli-startup.mjs',
  'list-scale.mjs',
  'serve-read.mjs',
  'mixed.mjs',
  'write-rate.mjs',
  'memory.mjs',
  'tenant-fairness.mjs',
  'remote-runs.mjs',
  'configuration-bomb.mjs',
  'registry.mjs',
  'postgres.mjs',
];
let failed = 0;
for (const script of SCRIPTS) {
  const r = spawnSync(process.execPath, [join(ROOT, 'bench', script), ...process.argv.slice(2)], { stdio: 'inherit' });
  if (r.status !== 0) {
    failed++;
    console.error(`${script} failed (${r.status ?? r.signal})`);
  }
}
process.exit(failed > 0 ? 1 : 0);
