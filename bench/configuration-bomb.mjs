#!/usr/bin/env node
// Resident memory of `berth serve` (executing runs, a stand-in terraform) while it extracts a
// gzip bomb uploaded as a run's configuration: its VmRSS once idle, then for each run the peak
// (VmHWM, reset before the run through /proc/PID/clear_refs, and VmRSS sampled every 20 ms) and
// how far above idle it went. Reference: a run of a one-file configuration. The bombs:
//   - the issue's: 20 files of 100 MiB of zeros, about 2 MB gzipped (2,169 MB of RSS before);
//   - 5 GiB the headers never announce: 2,560 pax headers of 2 MiB of zeros, which tar skips
//     (over its 1 MiB for one), so that only the count of inflated bytes stops it.
// Both end errored at the configuration's bound (1 GiB, and 2 KiB an entry for the tar stream);
// each run's folder must be gone when it ends. Target: peak < 100 MB above idle.
//   node bench/configuration-bomb.mjs [--smoke]
// --smoke: only the issue's bomb, with 11 files (just past the bound).
import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { constants, createGzip, gzipSync } from 'node:zlib';
import { Header } from 'tar';
import { BIN, CACHE, ensureBuilt, seededDatabase, SMOKE } from './lib.mjs';
import { api, residentMb, startBerth } from './lib/server.mjs';

const MiB = 1024 * 1024;
/** Quiet time before each run: serve's idle collection comes within a second. */
const QUIET_MS = 2000;
const BOMBS = [
  { name: `${SMOKE ? 11 : 20} files of 100 MiB of zeros`, entries: SMOKE ? 11 : 20, size: 100 * MiB, type: 'File' },
  ...(SMOKE
    ? []
    : [{ name: '2,560 pax headers of 2 MiB of zeros (5 GiB)', entries: 2560, size: 2 * MiB, type: 'ExtendedHeader' }]),
];

/** The .tar.gz of `entries` entries of `size` zeros (cached in bench/.cache: 12 s of CPU for the 5 GiB one). */
async function bombOf({ entries, size, type }) {
  const file = join(CACHE, `bomb-${type}-${entries}x${size}.tar.gz`);
  if (existsSync(file)) return readFileSync(file);
  const gzip = createGzip({ level: constants.Z_BEST_COMPRESSION });
  const out = [];
  gzip.on('data', (chunk) => out.push(chunk));
  const ended = new Promise((resolve) => gzip.on('end', resolve));
  const put = async (bytes) => {
    if (!gzip.write(bytes)) await new Promise((resolve) => gzip.once('drain', resolve));
  };
  const zeros = Buffer.alloc(MiB);
  for (let i = 0; i < entries; i++) {
    const header = new Header({ path: `zeros-${i}`, mode: 0o644, size, type });
    header.encode();
    await put(header.block);
    for (let left = size; left > 0; left -= MiB) await put(zeros.subarray(0, Math.min(left, MiB)));
  }
  await put(Buffer.alloc(1024));
  gzip.end();
  await ended;
  const archive = Buffer.concat(out);
  mkdirSync(CACHE, { recursive: true });
  writeFileSync(`${file}.tmp`, archive);
  renameSync(`${file}.tmp`, file);
  return archive;
}

/** A one-file configuration, the reference. */
function smallArchive() {
  const header = new Header({ path: 'main.tf', mode: 0o644, size: 4, type: 'File' });
  header.encode();
  const body = Buffer.alloc(512);
  body.write('# ok');
  return gzipSync(Buffer.concat([header.block, body, Buffer.alloc(1024)]));
}

/** The peak resident memory (VmHWM) of `pid`, in MB. */
function peakMb(pid) {
  const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return m ? Number(m[1]) / 1024 : 0;
}

/** Resets the peak of `pid` to its resident memory now; false where the kernel does not allow it. */
function resetPeak(pid) {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
    return true;
  } catch {
    return false;
  }
}

/** The run folders of serve `pid` left in the temporary folder. */
const leftFolders = (pid) => readdirSync(tmpdir()).filter((n) => n.startsWith(`berth-run-${pid}-`));

/** Uploads `archive` as a configuration of `wsId`, queues a plan-only run; answers its document once it ended. */
async function runOf(server, wsId, archive, onTick) {
  const cv = await api(server, 'POST', `/api/v2/workspaces/${wsId}/configuration-versions`, {
    data: { type: 'configuration-versions', attributes: { 'auto-queue-runs': false } },
  });
  const upload = await fetch(cv.json.data.attributes['upload-url'], {
    method: 'PUT',
    headers: { 'content-type': 'application/octet-stream' },
    body: archive,
  });
  if (!upload.ok) throw new Error(`upload: ${upload.status} ${await upload.text()}`);
  const created = await api(server, 'POST', '/api/v2/runs', {
    data: {
      type: 'runs',
      attributes: { message: 'bench', 'plan-only': true },
      relationships: {
        workspace: { data: { type: 'workspaces', id: wsId } },
        'configuration-version': { data: { type: 'configuration-versions', id: cv.json.data.id } },
      },
    },
  });
  for (;;) {
    onTick();
    const run = (await api(server, 'GET', `/api/v2/runs/${created.json.data.id}`)).json.data;
    if (['planned_and_finished', 'errored', 'canceled'].includes(run.attributes.status)) return run;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/** VmRSS of `pid` in MB, or null once it is gone. */
function rssOrNull(pid) {
  try {
    return residentMb(pid);
  } catch {
    return null;
  }
}

/**
 * One run of `archive`: its outcome, serve's peak and idle memory around it, its folder's fate;
 * `died` when serve did not live through it.
 */
async function measure(server, wsId, archive) {
  // Quiet first, as serve is between runs (its idle collection, src/api/idle-gc.ts, within a second).
  await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
  const idle = residentMb(server.pid);
  const reset = resetPeak(server.pid);
  let sampled = idle;
  const sample = () => (sampled = Math.max(sampled, rssOrNull(server.pid) ?? 0));
  const sampler = setInterval(sample, 20);
  let run;
  try {
    run = await runOf(server, wsId, archive, sample);
  } catch (err) {
    // A request that failed because serve is dying: it is gone within moments.
    for (let i = 0; i < 50 && rssOrNull(server.pid) !== null; i++) await new Promise((r) => setTimeout(r, 100));
    if (rssOrNull(server.pid) !== null) throw err;
    return { idle, peak: sampled, reset: false, died: true, left: leftFolders(server.pid).length };
  } finally {
    clearInterval(sampler);
  }
  const peak = Math.max(sampled, reset ? peakMb(server.pid) : 0);
  const at = run.attributes['status-timestamps'];
  const ended = at['errored-at'] ?? at['planned-and-finished-at'];
  const seconds = (Date.parse(ended) - Date.parse(at['planning-at'] ?? run.attributes['created-at'])) / 1000;
  return {
    idle,
    peak,
    reset,
    seconds,
    status: run.attributes.status,
    error: run.attributes['error-message'],
    left: leftFolders(server.pid).length,
  };
}

ensureBuilt();
const dir = mkdtempSync(join(tmpdir(), 'berth-bench-bomb-'));
const terraform = join(dir, 'terraform');
writeFileSync(terraform, `#!/bin/sh\ncase "$1" in version) echo '{"terraform_version":"1.13.3"}' ;; esac\nexit 0\n`, {
  mode: 0o755,
});
const archives = [];
for (const bomb of BOMBS) archives.push({ ...bomb, archive: await bombOf(bomb) });
// The stand-in needs no sandbox (where serve has one: bubblewrap by default).
const sandboxed = /--sandbox\b/.test(
  spawnSync(process.execPath, [BIN, 'serve', '--help'], { encoding: 'utf8' }).stdout,
);
const server = await startBerth(await seededDatabase(1), [
  '--execute-runs',
  '--terraform-binary',
  terraform,
  ...(sandboxed ? ['--sandbox', 'off'] : []),
]);
const rows = [];
let startIdle;
let endIdle;
try {
  startIdle = residentMb(server.pid);
  const wsId = (await api(server, 'GET', '/api/v2/organizations/bench/workspaces/ws-000000')).json.data.id;
  const small = smallArchive();
  rows.push({ name: 'reference: one file of 4 bytes', bytes: small.length, ...(await measure(server, wsId, small)) });
  for (const bomb of archives) {
    rows.push({ name: bomb.name, bytes: bomb.archive.length, ...(await measure(server, wsId, bomb.archive)) });
    if (rows.at(-1).died) break;
  }
  await new Promise((resolve) => setTimeout(resolve, QUIET_MS));
  endIdle = rssOrNull(server.pid);
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}

const mb = (n) => `${n.toFixed(1)} MB`;
console.log(`configuration-bomb: berth serve --execute-runs (stand-in terraform), pid ${server.pid}`);
console.log(`  idle after start            ${mb(startIdle)}`);
let failed = false;
for (const r of rows) {
  const above = r.peak - r.idle;
  if (r.died) failed = true;
  const stopped = r.status === 'errored' && /unpacks to more than/.test(r.error ?? '');
  const expected = r.name.startsWith('reference') ? r.status === 'planned_and_finished' : stopped;
  if (!expected || r.left > 0) failed = true;
  console.log(`  ${r.name} (${(r.bytes / 1e6).toFixed(2)} MB gzipped)`);
  if (r.died) {
    console.log(`    SERVE DIED during the run; run folder ${r.left > 0 ? 'LEFT BEHIND' : 'removed'}`);
    console.log(`    idle ${mb(r.idle)}   peak ${mb(r.peak)} (sampled)   above idle ${mb(r.peak - r.idle)}`);
    continue;
  }
  console.log(
    `    ${r.status}${r.error ? `: ${r.error}` : ''} after ${r.seconds.toFixed(1)} s; run folder ${r.left > 0 ? 'LEFT BEHIND' : 'removed'}`,
  );
  console.log(
    `    idle ${mb(r.idle)}   peak ${mb(r.peak)}${r.reset ? '' : ' (sampled)'}   above idle ${mb(above)} (goal < 100 MB: ${above < 100 ? 'met' : 'NOT met'})`,
  );
}
if (endIdle !== null)
  console.log(`  idle after the runs         ${mb(endIdle)} (${mb(endIdle - startIdle)} above the idle after start)`);
if (failed) {
  console.error('configuration-bomb: a run did not end as expected, or left its folder');
  process.exit(1);
}
