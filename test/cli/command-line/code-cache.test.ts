import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/cli.js';

/**
 * bin/boot.js loads the bundle with a V8 code cache. On a private copy of the installed package
 * (so that other tests keep theirs): a missing or corrupt cache is (re)written after a run, and
 * BERTH_CODE_CACHE=off leaves none.
 */
describe('the code cache of the CLI bundle', () => {
  let pkg: string;
  const caches = () => readdirSync(join(pkg, 'dist')).filter((f) => f.endsWith('.v8cache'));
  const run = (env: Record<string, string> = {}) =>
    execFileSync(process.execPath, [join(pkg, 'bin', 'run.js'), '--version'], {
      env: { ...process.env, ...env },
      encoding: 'utf8',
    });

  beforeAll(() => {
    pkg = mkdtempSync(join(tmpdir(), 'berth-pkg-'));
    for (const f of ['bin', 'package.json', 'oclif.manifest.json'])
      cpSync(join(ROOT, f), join(pkg, f), { recursive: true });
    cpSync(join(ROOT, 'dist', 'cli.cjs'), join(pkg, 'dist', 'cli.cjs'));
    symlinkSync(join(ROOT, 'node_modules'), join(pkg, 'node_modules'));
  });
  afterAll(() => rmSync(pkg, { recursive: true, force: true }));

  it('the build leaves one cache next to the bundle', () => {
    expect(readdirSync(join(ROOT, 'dist')).filter((f) => f.endsWith('.v8cache'))).toHaveLength(1);
  });

  it('BERTH_CODE_CACHE=off runs without writing one', () => {
    expect(run({ BERTH_CODE_CACHE: 'off' })).toMatch(/^berth\/\d+\.\d+\.\d+ /);
    expect(caches()).toEqual([]);
  });

  it('a missing cache is written by the next run, and a corrupt one is replaced', () => {
    expect(run()).toMatch(/^berth\//);
    expect(caches()).toHaveLength(1);
    const file = join(pkg, 'dist', caches()[0]);
    const good = readFileSync(file);
    expect(good.length).toBeGreaterThan(100_000);

    writeFileSync(file, 'not a code cache');
    expect(run()).toMatch(/^berth\//);
    expect(readFileSync(file).length).toBeGreaterThan(100_000);
  });
});
