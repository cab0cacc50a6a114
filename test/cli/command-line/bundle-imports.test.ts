import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../helpers/cli.js';

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? sources(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
  );
}

/** Start-up rules of the CLI bundle that a new file could break without any test noticing. */
describe('imports that the start-up time depends on', () => {
  const files = sources(join(ROOT, 'src')).map((f) => ({ path: relative(ROOT, f), text: readFileSync(f, 'utf8') }));

  it('@oclif/core is imported only by src/cli/oclif.ts (one copy of its CommonJS exports)', () => {
    expect(
      files
        .filter((f) => f.path !== join('src', 'cli', 'oclif.ts') && /from '@oclif\/core'/.test(f.text))
        .map((f) => f.path),
    ).toEqual([]);
  });

  it('the prompt library, the HTTP server adapter and jq are only loaded lazily (await import)', () => {
    const eager = files.filter(
      (f) =>
        /^import [^;]*from '(@inquirer\/prompts|@hono\/node-server|jq-wasm)'/m.test(f.text) &&
        !/^import type /m.test(
          f.text.match(/^import [^;]*from '(@inquirer\/prompts|@hono\/node-server|jq-wasm)'/m)![0],
        ),
    );
    // src/api/serve.ts is itself loaded only by `serve` (await import in src/commands/serve.ts).
    expect(eager.map((f) => f.path)).toEqual([join('src', 'api', 'serve.ts')]);
    expect(files.find((f) => f.path === join('src', 'commands', 'serve.ts'))!.text).toMatch(
      /await import\('\.\.\/api\/serve\.js'\)/,
    );
    expect(files.find((f) => f.path === join('src', 'cli', 'output', 'jq-filter.ts'))!.text).toMatch(
      /await import\('jq-wasm'\)/,
    );
  });

  it("the built bundle requires jq-wasm only inside --jq's lazy import, and holds none of it", () => {
    const bundle = readFileSync(join(ROOT, 'dist', 'cli.cjs'), 'utf8');
    // esbuild turns `await import(x)` of an external package into a require() inside a promise.
    expect(bundle.match(/require\("jq-wasm"\)/g)).toHaveLength(1);
    expect(bundle).toMatch(/Promise\.resolve\(\)\.then\(\(\)=>__toESM\(require\("jq-wasm"\)/);
    expect(bundle).not.toContain('JqError');
  });
});
