// Loads the CLI bundle (dist/cli.cjs) with a V8 code cache, then runs oclif.
//
// Start-up is a feature (see ARCHITECTURE.md), and two things in it are worth tens of
// milliseconds on every invocation:
// - bin/ is CommonJS (bin/package.json): an ES module entry makes Node load its ESM loader first.
// - Node 20 reuses compiled code only for scripts compiled through node:vm with `cachedData`, not
//   for ES modules; compiling the 1 MB bundle from scratch costs more than the rest of a command.
//   The build writes the cache; it is rewritten here when V8 rejects it (e.g. after a Node
//   upgrade). BERTH_CODE_CACHE=off disables it, BERTH_CODE_CACHE=write rewrites it after this run
//   (the build uses that to warm it).
'use strict';
const { accessSync, constants, readFileSync, renameSync, statSync, writeFileSync } = require('node:fs');
const Module = require('node:module');
const { dirname, join } = require('node:path');
const vm = require('node:vm');

async function boot({ development = false } = {}) {
  const root = dirname(__dirname);
  const filename = join(root, 'dist', 'cli.cjs');
  const mode = process.env.BERTH_CODE_CACHE;
  const stat = statSync(filename);
  // Named by size and time of the bundle: a rebuilt bundle never meets an old cache.
  const cacheFile = `${filename}.${stat.size}-${Math.trunc(stat.mtimeMs)}.v8cache`;
  let cachedData;
  if (mode !== 'off' && mode !== 'write') {
    try {
      cachedData = readFileSync(cacheFile);
    } catch {
      // No cache yet: compile from source, and write one at exit.
    }
  }
  // The build guarantees a pure-ASCII bundle, so latin1 reads it exactly, without UTF-8 decoding.
  const script = new vm.Script(Module.wrap(readFileSync(filename, 'latin1')), {
    filename,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (mode !== 'off' && (cachedData === undefined || script.cachedDataRejected)) {
    process.once('exit', () => {
      const tmp = `${cacheFile}.${process.pid}.tmp`;
      try {
        // A read-only install (e.g. global, owned by root): don't even serialise.
        accessSync(dirname(filename), constants.W_OK);
        writeFileSync(tmp, script.createCachedData());
        renameSync(tmp, cacheFile);
      } catch {
        // Run without a cache.
      }
    });
  }

  // Register the module before running it, so that oclif's require() of the same file (the
  // commands' "explicit" target) gets this instance instead of loading the bundle again.
  const bundleRequire = Module.createRequire(filename);
  const mod = new Module(filename);
  mod.filename = filename;
  mod.paths = Module._nodeModulePaths(dirname(filename));
  bundleRequire.cache[filename] = mod;
  script.runInThisContext().call(mod.exports, mod.exports, bundleRequire, mod, filename, dirname(filename));
  mod.loaded = true;
  // The package root (not bin/, whose package.json only sets the module type).
  await mod.exports.execute({ development, dir: root });
}

module.exports = { boot };
