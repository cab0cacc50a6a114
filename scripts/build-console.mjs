// Builds the web console (src/console, docs/console.md) into dist/console: one hashed script,
// one hashed style sheet, and an index.html that names them. The console is a browser app of its
// own: nothing of it goes into the CLI bundle, and only `berth serve` reads this folder.
import { build } from 'esbuild';
import { mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';

/** Builds the console of the project at `root` into `root`/dist/console. */
export async function buildConsole(root) {
  const outdir = join(root, 'dist', 'console');
  // Only this build's files: serve answers every asset the folder holds.
  await rm(outdir, { recursive: true, force: true });
  await mkdir(outdir, { recursive: true });
  const result = await build({
    absWorkingDir: root,
    entryPoints: { app: 'src/console/main.tsx' },
    outdir: 'dist/console',
    entryNames: '[name]-[hash]',
    assetNames: '[name]-[hash]',
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: ['es2022', 'chrome111', 'firefox115', 'safari16'],
    jsx: 'automatic',
    jsxImportSource: 'preact',
    tsconfig: 'src/console/tsconfig.json',
    minify: true,
    legalComments: 'none',
    charset: 'utf8',
    metafile: true,
    logLevel: 'warning',
  });
  const outputs = Object.keys(result.metafile.outputs).map((p) => basename(p));
  const script = outputs.find((n) => n.endsWith('.js'));
  const style = outputs.find((n) => n.endsWith('.css'));
  if (!script || !style)
    throw new Error(`build-console: expected a script and a style sheet, got ${outputs.join(', ')}`);
  const template = await readFile(join(root, 'src', 'console', 'index.html'), 'utf8');
  const html = template.replace('%STYLE%', `/console/${style}`).replace('%SCRIPT%', `/console/${script}`);
  await writeFile(join(outdir, 'index.html'), html);
  return { script, style };
}
