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
      'sort=-latest-change-at',
      'sort=current-run.created-at',
      'search[name]=svc17- (rare)',
      'search[name]=prod (common)',
      'search[name]=eu (2 characters)',
      'search[name]=7 (1 character)',
      'search[wildcard-name]=svc17-*',
      'search[wildcard-name]=*123',
      'search[wildcard-name]=*-prod-*',
      'search[tags]=a,b',
      'search[exclude-tags]=c',
      'filter[project][id]',
      'filter[tagged] env=prod',
      'include=effective_tag_bindings',
    ];
    for (const label of labels) {
      const line = out.split('\n').find((l) => l.trim().startsWith(label));
      expect(line, label).toMatch(
        /[\d.]+ ms at 300 \(\d+ match\)( \(page of \d+: [\d.]+ ms\))?\s+[\d.]+ ms at 30 \(\d+ match\)\s+ratio [\d.]+\s+(met|NOT met)$/,
      );
    }
    // The seed has what the queries look for: a plain list matches every workspace.
    expect(out).toMatch(/sort=name\s+[\d.]+ ms at 300 \(300 match\)/);
    expect(out).toMatch(/search\[name\]=svc17- \(rare\)\s+[\d.]+ ms at 300 \([1-9]\d* match\)/);
    expect(out).toMatch(
      /slowest median [\d.]+ ms \(target <= 20: (met|NOT met)\), worst ratio [\d.]+ \(target <= 3\.0: (met|NOT met)\)/,
    );
  }, 120_000);
});
