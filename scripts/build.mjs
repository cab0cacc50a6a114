// Builds the CLI into one ESM bundle (plus lazily loaded chunks) with esbuild, then writes
// oclif.manifest.json so that `berth --help` lists commands without loading them.
import { build } from 'esbuild';
import { rm, writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));

await rm(`${root}/dist`, { recursive: true, force: true });
// A stale manifest would be read back instead of the commands just built.
await rm(`${root}/oclif.manifest.json`, { force: true });
await build({
  absWorkingDir: root,
  entryPoints: { cli: 'src/cli/index.ts' },
  outdir: 'dist',
  bundle: true,
  splitting: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: 'linked',
  // Native addon: loaded from node_modules at run time. typescript: only oclif's development mode
  // would load it (to read tsconfig), never a built CLI.
  external: ['better-sqlite3', 'typescript'],
  // Some bundled CommonJS dependencies call require(); give the ESM bundle one.
  banner: { js: "import { createRequire as __berthCreateRequire } from 'node:module'; const require = __berthCreateRequire(import.meta.url);" },
  chunkNames: 'chunks/[name]-[hash]',
  logLevel: 'warning',
});

// The manifest: oclif reads it instead of importing every command to list them.
const { Config } = await import('@oclif/core');
const config = await Config.load({ root });
const plugin = config.getPluginsList().find((p) => p.root === config.root || p.name === 'berth');
const manifest = plugin?.manifest;
if (!manifest || Object.keys(manifest.commands ?? {}).length === 0) {
  console.error('build: could not compute the oclif manifest');
  process.exit(1);
}
await writeFile(`${root}/oclif.manifest.json`, `${JSON.stringify(manifest, null, 2)}\n`);
console.error(`build: dist/cli.js and oclif.manifest.json (${Object.keys(manifest.commands).length} commands)`);
