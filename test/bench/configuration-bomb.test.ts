import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

// Smoke mode only (one bomb of 11 files of 100 MiB of zeros, just past the configuration's bound):
// bench/configuration-bomb.mjs still runs end to end against berth serve --execute-runs and prints
// every figure. Memory is never asserted here (the figures are the benchmark's); the outcome is:
// the script fails when a run does not end as expected or leaves its folder.
it('configuration-bomb measures serve memory while it extracts a gzip bomb (smoke mode)', () => {
  const out = execFileSync(process.execPath, ['bench/configuration-bomb.mjs', '--smoke'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, BERTH_DB: '' },
    timeout: 120_000,
  });
  expect(out).toMatch(/idle after start\s+[\d.]+ MB/);
  expect(out).toMatch(/11 files of 100 MiB of zeros \([\d.]+ MB gzipped\)/);
  expect(out).toMatch(/errored: The configuration unpacks to more than 1073741824 bytes: .* run folder removed/);
  expect(out).toMatch(/peak [\d.]+ MB\s+above idle [\d.]+ MB \(goal < 100 MB: (met|NOT met)\)/);
}, 130_000);
