#!/usr/bin/env node
// Runs the PostgreSQL suite (vitest.postgres.config.ts): the whole API suite, the multi-process
// races and test/postgres, against a PostgreSQL database.
// - With BERTH_TEST_DATABASE_URL set, uses that database (each test makes its own schema in it).
// - Else starts a throwaway cluster with scripts/pg-cluster.sh (installing PostgreSQL from Debian
//   packages if missing) and stops it at the end, whatever happened.
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const cluster = join(root, 'scripts', 'pg-cluster.sh');
const extraArgs = process.argv.slice(2);

let dir = null;
let url = process.env.BERTH_TEST_DATABASE_URL;
const stopCluster = () => {
  if (!dir) return;
  spawnSync('bash', [cluster, 'stop', dir], { stdio: 'inherit' });
  dir = null;
};

if (!url) {
  dir = mkdtempSync(join(tmpdir(), 'berth-pg-'));
  const started = spawnSync('bash', [cluster, 'start', dir], { stdio: ['ignore', 'inherit', 'inherit'] });
  if (started.status !== 0) {
    stopCluster();
    console.error(
      'test-postgres: could not start a PostgreSQL cluster (see above). Set BERTH_TEST_DATABASE_URL to use a running server instead.',
    );
    process.exit(1);
  }
  url = readFileSync(join(dir, 'url'), 'utf8').trim();
}

const vitest = spawn(
  process.execPath,
  [join(root, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--config', 'vitest.postgres.config.ts', ...extraArgs],
  {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, BERTH_TEST_DATABASE_URL: url },
  },
);
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => {
    vitest.kill(signal);
  });
}
vitest.on('exit', (code, signal) => {
  stopCluster();
  process.exit(code ?? (signal ? 1 : 0));
});
