import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/cli.js';

// Smoke mode only: the benchmarks still run end to end against a real `berth serve` and print
// their figures. Timings are never asserted (shared machines are noisy); errors are.
const run = (script: string) =>
  execFileSync(process.execPath, [script, '--smoke'], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...process.env, BERTH_DB: '' },
    timeout: 120_000,
  });

describe('HTTP benchmarks (smoke mode)', () => {
  it('serve-read loads berth and the node:http reference and prints the ratio and p99', () => {
    const out = run('bench/serve-read.mjs');
    expect(out).toMatch(
      /node:http reference\s+\d+ req\/s\s+p50 [\d.]+ ms\s+p99 [\d.]+ ms\s+\(\d+ requests, 0 errors, 0 non-2xx\)/,
    );
    expect(out).toMatch(
      /berth serve\s+\d+ req\/s\s+p50 [\d.]+ ms\s+p99 [\d.]+ ms\s+\(\d+ requests, 0 errors, 0 non-2xx\)/,
    );
    expect(out).toMatch(/ratio\s+[\d.]+ of the reference's requests\/s \(target >= 0\.50: (met|NOT met)\)/);
    expect(out).toMatch(/berth p99\s+[\d.]+ ms \(target < 20: (met|NOT met)\)/);
    // The same load with the read cache off (`--read-cache 0`).
    expect(out).toMatch(
      /berth, no read cache\s+\d+ req\/s\s+p50 [\d.]+ ms\s+p99 [\d.]+ ms\s+\(\d+ requests, 0 errors, 0 non-2xx\)/,
    );
    expect(out).toMatch(
      /ratio, no read cache\s+[\d.]+ of the reference's requests\/s \(target >= 0\.25: (met|NOT met)\)/,
    );
    expect(out).toMatch(/p99, no read cache\s+[\d.]+ ms \(target < 20: (met|NOT met)\)/);
    // The ceiling server (bench/lib/read-ceiling.mjs): its statement still fits berth's schema.
    expect(out).toMatch(
      /ceiling, no framework\s+\d+ req\/s\s+p50 [\d.]+ ms\s+p99 [\d.]+ ms\s+\(\d+ requests, 0 errors, 0 non-2xx\)/,
    );
    expect(out).toMatch(/ratio, ceiling\s+[\d.]+ of the reference's requests\/s \(node:http, one SQL statement/);
  }, 120_000);

  it('mixed sends every kind of request without an error and reports the read cache hit rate', () => {
    const out = run('bench/mixed.mjs');
    expect(out).toMatch(
      /berth serve\s+\d+ req\/s\s+p50 [\d.]+ ms\s+p99 [\d.]+ ms\s+\(\d+ requests, 0 errors, 0 non-2xx\)/,
    );
    expect(out).toMatch(/node:http reference\s+\d+ req\/s/);
    expect(out).toMatch(/ratio\s+[\d.]+ of the reference's requests\/s \(target >= 0\.25: (met|NOT met)\)/);
    expect(out).toMatch(/read cache\s+[\d.]+% of \d+ GET lookups answered from it \(\d+ hits, \d+ answers stored\)/);
    for (const kind of [
      'GET workspace by id',
      'GET workspace by name',
      'GET workspace list',
      'POST lock',
      'POST unlock',
    ])
      expect(out).toMatch(new RegExp(`${kind}\\s+\\d+\\s+[\\d.]+\\s+[\\d.]+\\s+\\d+\\s+0\\s+(met|NOT met)`));
  }, 120_000);

  it('write-rate creates every workspace and locks and unlocks each without an error, at both durabilities, beside the storage floor and the write ceiling', () => {
    const out = run('bench/write-rate.mjs');
    for (const durability of ['full', 'normal']) {
      const section = out.slice(out.indexOf(`durability ${durability}`));
      expect(section).toMatch(
        /creates\s+\d+ \/s\s+p99 [\d.]+ ms\s+\(200 created in [\d.]+ s, 0 errors, 0 non-2xx; target >= 3000\/s, 0 errors\) (met|NOT met)/,
      );
      expect(section).toMatch(
        /lock\/unlock pairs\s+\d+ \/s\s+p99 [\d.]+ ms\s+\(200 pairs in [\d.]+ s, 0 errors, 0 non-2xx; target >= 3000\/s, 0 errors\) (met|NOT met)/,
      );
      expect(section).toMatch(/storage floor\s+\d+ pairs\/s \(better-sqlite3 alone, .*\); berth's pairs [\d.]+ of it/);
      // The write ceiling (bench/lib/write-ceiling.mjs): its statements still fit berth's schema,
      // and it locks and unlocks each workspace once per pair.
      expect(section).toMatch(
        /ceiling, no framework\s+\d+ pairs\/s\s+p99 [\d.]+ ms\s+\(200 pairs, 0 errors, 0 non-2xx; .*\); berth's pairs [\d.]+ of it/,
      );
    }
  }, 180_000);

  it('tenant-fairness sets up the crowded tenant and measures the other tenant while it hammers each page', () => {
    const out = run('bench/tenant-fairness.mjs');
    expect(out).toMatch(
      /nobody hammering\s+other tenant's read p50\s+[\d.]+ ms\s+p99\s+[\d.]+ ms\s+\/healthz p99\s+[\d.]+ ms\s+\(\d+ reads, 0 errors\)/,
    );
    for (const load of [
      'memberships, page[size]=100&include=user,teams',
      'a team, include=users,organization-memberships',
    ]) {
      const section = out.slice(out.indexOf(`hostile tenant: ${load}`));
      expect(section).toMatch(
        /^hostile tenant: .*\n\s+[1-9]\d* answers, largest [\d.]+ MB, mean [\d.]+ MB, 0 failed\n/,
      );
      expect(section).toMatch(
        /other tenant's read p50\s+[\d.]+ ms\s+p99\s+[\d.]+ ms\s+max\s+[\d.]+ ms\s+\/healthz p50\s+[\d.]+ ms\s+p99\s+[\d.]+ ms\s+\([1-9]\d* reads, 0 errors\)/,
      );
      expect(section).toMatch(/read p99 [\d.]+x the quiet one's \(target p99 < 50 ms: (met|NOT met)\)/);
    }
    expect(out).toMatch(/worst read p99\s+[\d.]+ ms \(target < 50: (met|NOT met)\)/);
  }, 180_000);

  it('memory reports the resident memory of serve after both loads', () => {
    const out = run('bench/memory.mjs');
    expect(out).toMatch(/berth serve\s+\d+ req\/s/);
    expect(out).toMatch(/creates\s+\d+ \/s/);
    expect(out).toMatch(/after serve-read and write-rate\s+[\d.]+ MB \(target <= 200\)\n/);
    expect(out).toMatch(/then 2 s quiet\s+[\d.]+ MB \(target <= 200\)/);
    expect(out).toMatch(
      /hostile tenant, peak\s+[\d.]+ MB \(target < 640; from [\d.]+ MB, \d+ answers, largest [\d.]+ M characters\)/,
    );
  }, 300_000);
});
