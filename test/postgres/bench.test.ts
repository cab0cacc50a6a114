import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';
import { TEST_DATABASE_URL } from '../helpers/store.js';

// Smoke mode: the PostgreSQL benchmark runs end to end (SQLite, then one and two instances on
// the test server); timings are never asserted, errors are.
describe('postgres benchmark (smoke mode)', () => {
  it('measures reads and writes on SQLite and on one and two PostgreSQL instances, without a failed request', () => {
    const out = execFileSync(process.execPath, ['bench/postgres.mjs', '--smoke'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, BERTH_DB: '', BERTH_BENCH_DATABASE_URL: TEST_DATABASE_URL },
      timeout: 240_000,
    });
    for (const label of [
      'sqlite, read cache on',
      'sqlite, read cache off',
      'postgres, 1 instance',
      'postgres, 2 instances',
      'postgres, 2 instances, 2 orgs',
    ]) {
      const line = out.split('\n').find((l) => l.trim().replace(/\s{2,}.*$/, '') === label);
      // reads/s, p99, creates/s, p99, pairs/s, p99, failed, then three ratios to SQLite.
      expect(line, label).toMatch(
        /^\s+[a-z0-9, ]+?\s+\d+\s+[\d.]+\s+\d+\s+[\d.]+\s+\d+\s+[\d.]+\s+0\s+[\d.]+, [\d.]+, [\d.]+$/,
      );
    }
    // Two organizations on two instances, against one instance and two instances in one organization.
    for (const what of ['creates/s', 'pairs/s']) {
      expect(out).toMatch(
        new RegExp(
          `two organizations on two instances: ${what} \\d+ = [\\d.]+x one instance, [\\d.]+x two instances in one organization \\(target >= [\\d.]+x: (met|NOT met)\\)`,
        ),
      );
    }
  }, 240_000);
});
