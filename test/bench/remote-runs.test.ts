import { execFileSync } from 'node:child_process';
import { expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { describeTerraform } from '../helpers/terraform.js';

// Smoke mode only (2 runs, plans of 20 resources): bench/remote-runs.mjs still runs end to end
// against berth serve --execute-runs and the real Terraform CLI, and prints every figure. Timings
// are never asserted (shared machines are noisy); errors are (an errored run fails the script).
describeTerraform(
  'remote-runs benchmark (smoke mode)',
  () => {
    it('measures run pick-up, a remote plan against a local one, and serve memory while runs execute', () => {
      const out = execFileSync(process.execPath, ['bench/remote-runs.mjs', '--smoke'], {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, BERTH_DB: '' },
        timeout: 170_000,
      });
      expect(out).toMatch(
        /run created -> planning started, 2 runs in 2 workspaces, --run-concurrency 2\s+p50 \d+ ms\s+p99 \d+ ms/,
      );
      expect(out).toMatch(/terraform plan, 20 terraform_data, local\s+median \d+ ms \(1 plans\)/);
      expect(out).toMatch(/terraform plan, 20 terraform_data, through berth median \d+ ms \(1 plans\)/);
      expect(out).toMatch(/ratio\s+[\d.]+ \(target <= 1\.5: (met|NOT met)\)/);
      expect(out).toMatch(/serve VmRSS while 2 runs execute\s+peak [\d.]+ MB \(before them [\d.]+ MB\)/);
    });
  },
  180_000,
);
