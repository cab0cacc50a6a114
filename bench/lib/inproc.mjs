// The API app in-process for benchmarks: src/ bundled with esbuild (a dev dependency) into
// bench/.cache, rebuilt on every run so that it always measures the current source.
import { build } from 'esbuild';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CACHE, ROOT } from '../lib.mjs';

const ENTRY = `
export { createApp } from './src/api/app.ts';
export { openStore } from './src/store/open.ts';
export { loadSettings } from './src/services/instance/settings.ts';
export { LOCAL_SITE_ADMIN } from './src/domain/permissions/actor.ts';
`;

/** Opens the database file and returns `fetch(path)` on the app, acting as the local site admin. */
export async function inProcessApi(dbPath) {
  mkdirSync(CACHE, { recursive: true });
  const out = join(CACHE, 'inproc.mjs');
  await build({
    stdin: { contents: ENTRY, resolveDir: ROOT, loader: 'ts', sourcefile: 'bench-inproc.ts' },
    absWorkingDir: ROOT,
    outfile: out,
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    external: ['better-sqlite3', 'pg'],
    banner: {
      js: "import { createRequire as __benchRequire } from 'node:module'; const require = __benchRequire(import.meta.url);",
    },
    logLevel: 'warning',
  });
  const mod = await import(`${pathToFileURL(out).href}?t=${Date.now()}`);
  const store = await mod.openStore(dbPath);
  const settings = await mod.loadSettings(store.db);
  const app = mod.createApp({ db: store.db, settings, localActor: mod.LOCAL_SITE_ADMIN });
  return {
    store,
    async get(path) {
      const res = await app.fetch(new Request(`http://berth.bench${path}`));
      const text = await res.text();
      if (res.status !== 200) throw new Error(`GET ${path}: ${res.status} ${text.slice(0, 300)}`);
      return JSON.parse(text);
    },
    close: () => store.close(),
  };
}
