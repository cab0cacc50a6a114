// Builds the CLI into one CommonJS bundle with esbuild, writes oclif.manifest.json so that
// `berth --help` lists commands without loading them, then warms the V8 code cache that
// bin/boot.js loads the bundle with.
//
// Why one CommonJS file: Node 20 reuses compiled code only for scripts compiled with node:vm's
// `cachedData`, not for ES modules, and compiling the bundle is the largest part of start-up.
// What must stay lazy is kept out of the bundle and required only when used: the prompt library
// (a prompt is shown), the HTTP server adapter (`serve`), jq (`--jq`), the mailer (serve's email
// notifications), and the native SQLite addon.
import { build } from 'esbuild';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildConsole } from './build-console.mjs';

const root = fileURLToPath(new URL('..', import.meta.url));

/**
 * esbuild's `charset: 'ascii'` escapes strings but not regular expression literals; the colour
 * library has one with a raw U+009B (the C1 control sequence introducer). Written as `\x9b`, it is
 * the same expression, and the bundle stays pure ASCII.
 */
function asciiRegexPlugin() {
  return {
    name: 'ascii-regex',
    setup(b) {
      b.onLoad({ filter: /[\\/]node_modules[\\/]ansis[\\/].*\.c?js$/ }, async (args) => ({
        contents: (await readFile(args.path, 'utf8')).replaceAll('\u009b', '\\x9b'),
        loader: 'js',
      }));
    },
  };
}

/**
 * oclif sorts the command list with String#localeCompare, whose first call loads ICU's collation
 * data: 8 ms of every start, to sort ASCII ids. A plain code-point comparison gives the same
 * order for these ids. The build fails if a new oclif no longer has the line, so that this patch
 * never silently stops applying.
 */
function oclifSortPlugin() {
  const from = '.sort((a, b) => a.id.localeCompare(b.id));';
  return {
    name: 'oclif-sort',
    setup(b) {
      b.onLoad({ filter: /[\\/]@oclif[\\/]core[\\/]lib[\\/]config[\\/]plugin\.js$/ }, async (args) => {
        const source = await readFile(args.path, 'utf8');
        if (!source.includes(from))
          throw new Error(`oclif-sort: ${args.path} no longer sorts with localeCompare; revisit the patch`);
        return {
          contents: source.replace(from, '.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));'),
          loader: 'js',
        };
      });
    },
  };
}

// The bundle is written beside dist/ and renamed into it, so that a CLI started while a build runs
// (tests in another process, serve) finds the old bundle or the new one, never none or half of
// one. The folder is a sibling of dist/, so the source map's relative paths stay right.
const staging = `dist-build-${process.pid}`;
await mkdir(`${root}/dist`, { recursive: true });
await build({
  absWorkingDir: root,
  entryPoints: { cli: 'src/cli/index.ts' },
  outdir: staging,
  outExtension: { '.js': '.cjs' },
  bundle: true,
  format: 'cjs',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  // Less to read and parse at each start; names are kept (oclif and error output use them), and
  // the bundle is pure ASCII so that Node reads it without decoding UTF-8.
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  charset: 'ascii',
  // Loaded from node_modules when first needed. typescript: only oclif's development mode would
  // load it (to read tsconfig), never a built CLI.
  // nodemailer: serve's email notifications only, loaded when a mail goes out.
  external: ['better-sqlite3', 'pg', 'typescript', '@inquirer/prompts', '@hono/node-server', 'jq-wasm', 'nodemailer'],
  // `await import(x)` of those becomes a require() inside a promise: the bundle is run through
  // node:vm, where require() is the cheap and predictable way to load a package.
  supported: { 'dynamic-import': false },
  // Modules that also run as ES modules (tests, the checkpointer's worker path) read
  // import.meta.url; in the CommonJS bundle it is the bundle's own file URL.
  define: { 'import.meta.url': '__bundleUrl' },
  banner: { js: 'var __bundleUrl=require("node:url").pathToFileURL(__filename).href;' },
  logLevel: 'warning',
  plugins: [asciiRegexPlugin(), oclifSortPlugin()],
});
const bundle = await readFile(`${root}/${staging}/cli.cjs`);
const nonAscii = bundle.findIndex((b) => b > 0x7f);
if (nonAscii >= 0) {
  await rm(`${root}/${staging}`, { recursive: true, force: true });
  console.error(`build: dist/cli.cjs has a non-ASCII byte at offset ${nonAscii}; escape it (see asciiRegexPlugin)`);
  process.exit(1);
}
await rename(`${root}/${staging}/cli.cjs.map`, `${root}/dist/cli.cjs.map`);
await rename(`${root}/${staging}/cli.cjs`, `${root}/dist/cli.cjs`);
await rm(`${root}/${staging}`, { recursive: true, force: true });
// Code caches of earlier bundles (named by their size and time) are of no use any more.
const current = statSync(`${root}/dist/cli.cjs`);
const keep = `cli.cjs.${current.size}-${Math.trunc(current.mtimeMs)}.v8cache`;
for (const f of await readdir(`${root}/dist`))
  if (f.endsWith('.v8cache') && f !== keep) await rm(`${root}/dist/${f}`, { force: true });

// The manifest: oclif reads it instead of importing every command to list them. A stale one would
// be read back instead of the commands just built.
await rm(`${root}/oclif.manifest.json`, { force: true });
const { Config } = await import('@oclif/core');
const config = await Config.load({ root });
const plugin = config.getPluginsList().find((p) => p.root === config.root || p.name === 'berth');
const manifest = plugin?.manifest;
if (!manifest || Object.keys(manifest.commands ?? {}).length === 0) {
  console.error('build: could not compute the oclif manifest');
  process.exit(1);
}
await writeFile(`${root}/oclif.manifest.json`, `${JSON.stringify(manifest, null, 2)}\n`);

// Warm the code cache with what a typical local command compiles: each run adds the functions it
// used to those already cached.
const scratch = mkdtempSync(join(tmpdir(), 'berth-build-'));
try {
  const env = {
    ...process.env,
    BERTH_DB: join(scratch, 'warm.db'),
    BERTH_ORG: 'warm',
    NO_COLOR: '1',
    HOME: scratch,
    BERTH_CODE_CACHE: 'write',
  };
  for (const args of [
    ['org', 'create', 'warm', '--email', 'warm@example.test'],
    ['workspace', 'create', 'app', '--json'],
    ['workspace', 'show', 'app'],
    ['workspace', 'list'],
  ]) {
    execFileSync(process.execPath, [join(root, 'bin', 'run.js'), ...args], { env, stdio: 'ignore' });
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
// The web console: a browser app of its own (scripts/build-console.mjs), served by `berth serve`.
const built = await buildConsole(root);
console.error(
  `build: dist/console (${built.script}, ${built.style}), dist/cli.cjs, its code cache and oclif.manifest.json (${Object.keys(manifest.commands).length} commands)`,
);
