import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

// Benchmarks are not timed in tests (shared machines are noisy); their smoke mode only proves
// that they still run end to end and report what they measure.
describe('benchmarks (smoke mode)', () => {
  it('cli-startup measures berth against node and prints the ratio', () => {
    const out = execFileSync(process.execPath, ['bench/cli-startup.mjs', '--smoke'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, BERTH_DB: '' },
    });
    expect(out).toMatch(/node -e 0\s+median [\d.]+ ms/);
    expect(out).toMatch(/berth workspace show\s+median [\d.]+ ms/);
    expect(out).toMatch(/ratio\s+[\d.]+ \(target <= 2\.0\)/);
  });
});
