#!/usr/bin/env node
// The private registry (issue 44) under load, on a real `berth serve` (SQLite; --postgres: parts 1
// and 3 again on a throwaway PostgreSQL cluster, as bench/postgres.mjs):
//   1. MODULES private modules of VERSIONS published versions each (10,000 x 20). The first
//      --api-modules (100) are published through the API (module, version, the PUT of its archive:
//      what `berth registry module publish` sends), 16 at once; the rest are written into the
//      database as copies of the rows the API wrote for the first module (module, versions,
//      archives, audit events), since the API alone takes 20 minutes and more on this 2-core
//      machine (--seed-api: every module through the API). Then p50/p99 of the module registry
//      protocol's `versions` and `download` answers, a random module (and version) each request,
//      over 8 connections for 10 s, against two references measured in the same run:
//      GET /api/v2/ping (the floor: authentication, routing) and GET /api/v2/organizations/bench
//      (which the read cache answers). Target: p99 < 25 ms. One token sends all: its GETs take
//      turns in serve's read gate (one at a time on SQLite, two on PostgreSQL: api/read-gate.ts),
//      so a p99 includes waiting behind that token's other requests.
//   2. INITS (50) `terraform init`s at once, the real Terraform CLI on the PATH (or
//      BERTH_BENCH_TERRAFORM), each in its own folder with a configuration using one published
//      module (a different one each) of berth.bench, whose CLI configuration's `host` block points
//      `modules.v1` at serve and whose `credentials` block gives the token; against one init
//      alone, and against as many inits at once of a module in a folder beside the configuration
//      (no registry: what the terraform processes cost the machine by themselves). Target: 0
//      errors, every init installing its module (wall time reported).
//   3. serve's resident memory (VmRSS sampled every 20 ms, and VmHWM, reset before each push)
//      while a provider archive of ARCHIVE_MB (200) MB is pushed into the mirror (PUT, streamed
//      from a file, with its zh: hash, which serve checks), after one a tenth its size, each after
//      2 s without requests. Reported: each peak above the idle before it. Target: flat, i.e. ten
//      times the archive peaks less than a tenth of the difference (18 MB) above the smaller one.
//   node bench/registry.mjs [--smoke] [--postgres] [--seed-api] [--api-modules N] [--modules N]
//     [--versions N] [--inits N] [--archive-mb N] [--seconds N]
// --smoke: 20 modules of 3 versions, 1 s loads, 2 inits, an archive of 8 MB.
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import {
  createReadStream,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  writeFileSync,
  writeSync,
  closeSync,
} from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import pg from 'pg';
import { ensureBuilt, median, ROOT, SMOKE } from './lib.mjs';
import { benchPostgres, seededPostgres } from './lib/postgres.mjs';
import { MODULE_MAIN_TF, moduleOf, seededRegistry, versionOf } from './lib/registry-seed.mjs';
import { residentMb, startBerth, startBerthsOnPostgres } from './lib/server.mjs';

const flag = (name, fallback) => {
  const i = process.argv.indexOf(`--${name}`);
  return i === -1 ? fallback : Number(process.argv[i + 1]);
};
const MODULES = flag('modules', SMOKE ? 20 : 10_000);
const VERSIONS = flag('versions', SMOKE ? 3 : 20);
const API_MODULES = process.argv.includes('--seed-api')
  ? MODULES
  : Math.min(MODULES, flag('api-modules', SMOKE ? 5 : 100));
const SECONDS = flag('seconds', SMOKE ? 1 : 10);
const CONNECTIONS = 8;
const INITS = flag('inits', SMOKE ? 2 : 50);
const ARCHIVE_MB = flag('archive-mb', SMOKE ? 8 : 200);
const POSTGRES = process.argv.includes('--postgres');
const P99_TARGET_MS = 25;
const HOST = 'berth.bench';
const QUIET_MS = 2000;

const met = (ok) => (ok ? 'met' : 'NOT met');
const mb = (n) => `${n.toFixed(1)} MB`;

// ---- 1. the protocol's answers -------------------------------------------------------------

function load(server, options) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        join(ROOT, 'bench', 'lib', 'registry-load.mjs'),
        JSON.stringify({
          url: server.url,
          token: server.token,
          connections: CONNECTIONS,
          modules: MODULES,
          versions: VERSIONS,
          ...options,
        }),
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.once('exit', (code) =>
      code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`load generator failed (${code}): ${out}`)),
    );
  });
}

const KINDS = [
  ['GET /api/v2/ping (reference)', { kind: 'path', path: '/api/v2/ping' }],
  ['GET /api/v2/organizations/bench (reference)', { kind: 'path', path: '/api/v2/organizations/bench' }],
  ['modules.v1 versions', { kind: 'versions' }],
  ['modules.v1 download', { kind: 'download' }],
];

async function protocolLoads(server) {
  // A second of each first, unmeasured: the JIT and the caches of a fresh process.
  for (const [, options] of KINDS) await load(server, { ...options, duration: 1 });
  const rows = [];
  for (const [label, options] of KINDS) rows.push([label, await load(server, { ...options, duration: SECONDS })]);
  return rows;
}

function printLoads(store, rows) {
  console.log(`  ${store}: ${CONNECTIONS} connections, ${SECONDS} s each, a random module (and version) per request`);
  console.log(
    '    route                                          req/s   p50 ms   p99 ms   errors  p99 vs ping   target',
  );
  const ping = rows[0][1];
  let ok = true;
  for (const [, r] of rows) if (r.errors + r.non2xx > 0) broken = true;
  for (const [label, r] of rows) {
    const failed = r.errors + r.non2xx;
    const protocol = label.startsWith('modules.v1');
    const good = r.p99 < P99_TARGET_MS && failed === 0;
    if (protocol) ok &&= good;
    console.log(
      `    ${label.padEnd(44)} ${r.perSecond.toFixed(0).padStart(7)} ${String(r.p50).padStart(8)} ${String(r.p99).padStart(8)} ${String(failed).padStart(8)} ${`${(r.p99 / ping.p99).toFixed(2)}x`.padStart(12)}   ${protocol ? `p99 < ${P99_TARGET_MS}, 0 errors: ${met(good)}` : ''}`,
    );
  }
  return ok;
}

// ---- 2. terraform init ---------------------------------------------------------------------

function findTerraform() {
  if (process.env.BERTH_BENCH_TERRAFORM) return process.env.BERTH_BENCH_TERRAFORM;
  for (const dir of (process.env.PATH ?? '').split(delimiter))
    if (dir && spawnSync(join(dir, 'terraform'), ['version'], { stdio: 'ignore' }).status === 0)
      return join(dir, 'terraform');
  return null;
}

/** `terraform init` in `dir`: its exit code, wall time (ms) and output. */
function init(terraform, dir, cliConfig) {
  const env = {};
  for (const [k, v] of Object.entries(process.env)) if (!/^(TF_|BERTH_|CHECKPOINT_)/.test(k)) env[k] = v;
  return new Promise((resolve) => {
    const started = performance.now();
    const child = spawn(terraform, ['init', '-input=false', '-no-color'], {
      cwd: dir,
      env: {
        ...env,
        HOME: join(dir, 'home'),
        TF_IN_AUTOMATION: '1',
        CHECKPOINT_DISABLE: '1',
        TF_CLI_CONFIG_FILE: cliConfig,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (err) => resolve({ code: -1, ms: performance.now() - started, output: String(err) }));
    child.on('close', (code) => resolve({ code, ms: performance.now() - started, output }));
  });
}

/** A folder whose configuration uses module `i` of the seed, its newest major. */
function initFolder(root, name, i) {
  const { name: module, provider } = moduleOf(i);
  const dir = join(root, name);
  mkdirSync(join(dir, 'home'), { recursive: true });
  const major = versionOf(VERSIONS - 1).split('.')[0];
  writeFileSync(
    join(dir, 'main.tf'),
    `module "m" {\n  source  = "${HOST}/bench/${module}/${provider}"\n  version = "~> ${major}.0"\n  who     = "bench"\n}\n\noutput "greeting" {\n  value = module.m.greeting\n}\n`,
  );
  return { dir, source: `${HOST}/bench/${module}/${provider}` };
}

/** A folder whose configuration uses a module of its own folder (`./m`, the seed's module). */
function localFolder(root, name) {
  const dir = join(root, name);
  mkdirSync(join(dir, 'home'), { recursive: true });
  mkdirSync(join(dir, 'm'));
  writeFileSync(join(dir, 'm', 'main.tf'), MODULE_MAIN_TF);
  writeFileSync(
    join(dir, 'main.tf'),
    `module "m" {\n  source = "./m"\n  who    = "bench"\n}\n\noutput "greeting" {\n  value = module.m.greeting\n}\n`,
  );
  return dir;
}

async function terraformInits(server, terraform) {
  const root = mkdtempSync(join(tmpdir(), 'berth-bench-inits-'));
  try {
    const cliConfig = join(root, 'cli.tfrc');
    writeFileSync(
      cliConfig,
      `host "${HOST}" {\n  services = {\n    "modules.v1" = "${server.url}/api/registry/v1/modules/"\n  }\n}\n` +
        `credentials "${HOST}" {\n  token = "${server.token}"\n}\n`,
    );
    const alone = initFolder(root, 'alone', MODULES - 1);
    const single = await init(terraform, alone.dir, cliConfig);
    single.installed = single.code === 0 && single.output.includes(`Downloading ${alone.source}`);
    if (process.env.BENCH_DEBUG) console.error(single.output);
    // The reference: as many inits at once of a module in a folder beside the configuration (no
    // registry, nothing downloaded), what 50 terraform processes cost this machine by themselves.
    const locals = Array.from({ length: INITS }, (_, k) => localFolder(root, `local-${k}`));
    const localStarted = performance.now();
    const localResults = await Promise.all(locals.map((dir) => init(terraform, dir, cliConfig)));
    const localWall = performance.now() - localStarted;
    const localFailed = localResults.filter((r) => r.code !== 0);
    if (localFailed.length > 0) throw new Error(`a local-module init failed:\n${localFailed[0].output.slice(-1500)}`);
    const folders = Array.from({ length: INITS }, (_, k) =>
      initFolder(root, `init-${k}`, Math.floor((k * MODULES) / INITS)),
    );
    const started = performance.now();
    const results = await Promise.all(folders.map((f) => init(terraform, f.dir, cliConfig)));
    const wall = performance.now() - started;
    const installed = results.filter((r, k) => r.code === 0 && r.output.includes(`Downloading ${folders[k].source}`));
    const failed = results.filter((r) => r.code !== 0);
    return { single, wall, localWall, results, installed: installed.length, failed };
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

// ---- 3. a big push into the mirror ---------------------------------------------------------

/** A file of `megabytes` MB of random bytes (a stand-in provider zip: serve does not unpack it); its SHA-256. */
function archiveFile(dir, megabytes) {
  const file = join(dir, `archive-${megabytes}.zip`);
  const fd = openSync(file, 'w');
  const hash = createHash('sha256');
  for (let i = 0; i < megabytes; i++) {
    const chunk = randomBytes(1024 * 1024);
    hash.update(chunk);
    writeSync(fd, chunk);
  }
  closeSync(fd);
  return { file, bytes: megabytes * 1024 * 1024, sha256: hash.digest('hex') };
}

function peakMb(pid) {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

/** Resets VmHWM to VmRSS (false where the kernel does not allow it: the 20 ms samples remain). */
function resetPeak(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** PUTs `archive` into the mirror of `bench` as version `version`, streamed from its file. */
function push(server, archive, version) {
  const path = `/api/registry/mirror/bench/registry.terraform.io/hashicorp/bench/terraform-provider-bench_${version}_linux_amd64.zip?hash=zh:${archive.sha256}`;
  return new Promise((resolve, reject) => {
    const req = request(new URL(path, server.url), {
      method: 'PUT',
      headers: {
        authorization: `Bearer ${server.token}`,
        'content-type': 'application/zip',
        'content-length': archive.bytes,
      },
    });
    req.on('response', (res) => {
      let text = '';
      res.on('data', (d) => (text += d));
      res.on('end', () =>
        res.statusCode === 201 || res.statusCode === 200
          ? resolve(JSON.parse(text))
          : reject(new Error(`push: ${res.statusCode} ${text.slice(0, 300)}`)),
      );
    });
    req.on('error', reject);
    pipeline(createReadStream(archive.file), req).catch(reject);
  });
}

async function measurePush(server, archive, version) {
  await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
  const idle = residentMb(server.pid);
  const reset = resetPeak(server.pid);
  let sampled = idle;
  const sampler = setInterval(() => (sampled = Math.max(sampled, residentMb(server.pid))), 20);
  const started = performance.now();
  let pushed;
  try {
    pushed = await push(server, archive, version);
  } finally {
    clearInterval(sampler);
  }
  const seconds = (performance.now() - started) / 1000;
  const peak = Math.max(sampled, reset ? peakMb(server.pid) : 0);
  if (pushed.size !== archive.bytes) throw new Error(`the mirror holds ${pushed.size} bytes of ${archive.bytes}`);
  return { idle, peak, reset, seconds, bytes: archive.bytes };
}

async function mirrorPushes(server, archives) {
  return {
    small: await measurePush(server, archives.small, '0.1.0'),
    big: await measurePush(server, archives.big, '1.0.0'),
  };
}

function printPushes(store, { small, big }) {
  const size = (r) => r.bytes / 1024 / 1024;
  console.log(`  ${store}: serve's VmRSS while an archive is pushed into the mirror (PUT, streamed from a file)`);
  for (const r of [small, big])
    console.log(
      `    ${mb(size(r)).padStart(9)} archive  ${r.seconds.toFixed(1)} s (${(size(r) / r.seconds).toFixed(0)} MB/s)   idle before ${mb(r.idle)}   peak ${mb(r.peak)}${r.reset ? '' : ' (sampled)'}   above idle ${mb(r.peak - r.idle)}`,
    );
  // Flat: ten times the archive does not take more memory; what the first push costs once (code
  // and buffers of a path not used before, the heap's growth) is the smaller one's.
  const more = big.peak - small.peak;
  const ok = more < (size(big) - size(small)) / 10;
  console.log(
    `    flat: the ${mb(size(big))} push peaked ${mb(big.peak - big.idle)} above the idle before it, ${mb(big.peak - small.idle)} above the idle before the first push; ` +
      `${mb(more)} above the ${mb(size(small))} push's peak (target < a tenth of the ${mb(size(big) - size(small))} more archive, ${mb((size(big) - size(small)) / 10)}: ${met(ok)})`,
  );
  return ok;
}

// ---- the run --------------------------------------------------------------------------------

ensureBuilt();
const seed = await seededRegistry(MODULES, VERSIONS, { apiModules: API_MODULES });
const terraform = findTerraform();
const workDir = mkdtempSync(join(tmpdir(), 'berth-bench-registry-'));
const archives = {
  small: archiveFile(workDir, Math.max(1, Math.round(ARCHIVE_MB / 10))),
  big: archiveFile(workDir, ARCHIVE_MB),
};

console.log(`registry: ${MODULES} modules x ${VERSIONS} versions`);
if (seed.seeded) {
  const { api, cloned } = seed.seeded;
  console.log(
    `  seed (made now, cached in bench/.cache): ${api.modules} modules through the API (${api.requests} requests in ${api.seconds.toFixed(1)} s, ${(api.requests / api.seconds).toFixed(0)}/s, 16 at once)` +
      (cloned.modules > 0
        ? `, then ${cloned.modules} through the database, copies of the API's rows (${cloned.seconds.toFixed(1)} s)`
        : ''),
  );
} else
  console.log(
    `  seed (cached in bench/.cache): ${API_MODULES} modules through the API${API_MODULES < MODULES ? `, ${MODULES - API_MODULES} through the database (copies of the API's rows)` : ''}`,
  );

let ok = true;
/** A request or an init that failed (not a timing): the script exits 1, as the other benchmarks. */
let broken = false;
const server = await startBerth(seed.file, ['--no-execute-runs']);
let inits;
let pushes;
try {
  ok = printLoads('sqlite', await protocolLoads(server)) && ok;
  if (terraform) inits = await terraformInits(server, terraform);
  pushes = await mirrorPushes(server, archives);
} finally {
  await server.stop();
}

if (!terraform) console.log('  terraform init: not run: no terraform on the PATH (or BERTH_BENCH_TERRAFORM)');
else {
  const times = inits.results.map((r) => r.ms);
  console.log(
    `  terraform init (${spawnSync(terraform, ['version'], { encoding: 'utf8' }).stdout.split('\n')[0]}), modules.v1 through a host block, sqlite`,
  );
  console.log(
    `    one alone                    ${inits.single.ms.toFixed(0)} ms (${inits.single.installed ? 'installed its module' : `FAILED, exit ${inits.single.code}:\n${inits.single.output.slice(-1500)}`})`,
  );
  console.log(
    `    ${`${INITS} at once`.padEnd(28)} wall ${(inits.wall / 1000).toFixed(2)} s (${(inits.wall / inits.single.ms).toFixed(1)}x one alone), each p50 ${median(times).toFixed(0)} ms, max ${Math.max(...times).toFixed(0)} ms; ${inits.installed} installed their module, ${inits.failed.length} errors (target 0: ${met(inits.failed.length === 0 && inits.installed === INITS)})`,
  );
  console.log(
    `    ${`${INITS} at once, a local module`.padEnd(28)} wall ${(inits.localWall / 1000).toFixed(2)} s (the reference: no registry); the registry's ${(inits.wall / inits.localWall).toFixed(2)}x it`,
  );
  if (inits.failed.length > 0) console.log(`    the first error:\n${inits.failed[0].output.slice(-1500)}`);
  const initsOk = inits.failed.length === 0 && inits.installed === INITS && inits.single.installed;
  ok &&= initsOk;
  broken ||= !initsOk;
}
ok = printPushes('sqlite', pushes) && ok;

if (POSTGRES) {
  const pgServer = benchPostgres();
  try {
    const started = performance.now();
    const db = await seededPostgres(pgServer.url, seed.file);
    // Vacuumed now, so that autovacuum does not visit the copied tables during the loads.
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    await client.query('vacuum analyze');
    await client.end();
    console.log(
      `  postgres: the same seed copied with berth db copy, then vacuumed (${((performance.now() - started) / 1000).toFixed(0)} s)`,
    );
    const [onPostgres] = await startBerthsOnPostgres(db.url, db.token, 1);
    try {
      ok = printLoads('postgres', await protocolLoads(onPostgres)) && ok;
      ok = printPushes('postgres', await mirrorPushes(onPostgres, archives)) && ok;
    } finally {
      await onPostgres.stop();
      await db.drop();
    }
  } finally {
    pgServer.stop();
  }
}
rmSync(workDir, { recursive: true, force: true });
console.log(`  every target: ${met(ok)}`);
if (broken) {
  console.error('registry: requests or inits failed');
  process.exit(1);
}
