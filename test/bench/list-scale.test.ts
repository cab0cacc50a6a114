import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

describe('list-scale benchmark (smoke mode)', () => {
  it('times every list query at both sizes and prints one line per query', () => {
    const out = execFileSync(process.execPath, ['bench/list-scale.mjs', '--smoke'], {
      cwd: ROOT,
      encoding: 'utf8',
      env: { ...process.env, BERTH_DB: '' },
      timeout: 120_000,
    });
    const labels = [
      'sort=name',
      'search[tags]=a,b',
      'search[exclude-tags]=c',
      'search[wildcard-name]=*-prod-*',
      'search[name]=svc17-',
      'filter[project][id]',
      'filter[tagged] env=prod',
      'sort=-latest-change-at',
      'include=effective_tag_bindings',
    ];
    for (const label of labels) {
      const line = out.split('\n').find((l) => l.trim().startsWith(label));
      expect(line, label).toMatch(
        /[\d.]+ ms at 300 \(\d+ match\)\s+[\d.]+ ms at 30 \(\d+ match\)\s+ratio [\d.]+ \(targets <= 20 ms, <= 3\.0\)/,
      );
    }
    // The seed has what the queries look for: a plain list matches every workspace.
    expect(out).toMatch(/sort=name\s+[\d.]+ ms at 300 \(300 match\)\s+[\d.]+ ms at 30 \(30 match\)/);
    expect(out).toMatch(/slowest median [\d.]+ ms \(target <= 20\), worst ratio [\d.]+ \(target <= 3\.0\)/);
  }, 120_000);
});
