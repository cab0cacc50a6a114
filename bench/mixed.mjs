#!/usr/bin/env node
// Mixed traffic on `berth serve` (read cache on, as shipped) at 10,000 workspaces: 32 connections
// for 20 s (autocannon in its own process, bench/lib/mixed-load.mjs), each sending a cycle of
// ten requests: seven GETs (a workspace by id three times and by name twice, a filtered list
// page of 20-100, a current state version), a lock/unlock pair on a workspace no other
// connection holds, and one write (a create, a description PATCH, a flat tag or a tag binding
// added, in turn). Prints the requests/s, p50/p99 per kind of request, the read cache's hit
// rate, and the ratio to a bare node:http server answering the same requests with bodies of the
// sizes berth answered each kind with (measured first, in the same run).
// Targets: ratio >= 0.25, p99 < 20 ms for every kind.
//   node bench/mixed.mjs [--smoke]
import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ensureBuilt, ROOT, seededDatabase, SMOKE } from './lib.mjs';
import { api, startBerth, startScriptServer } from './lib/server.mjs';

export const MIXED_WORKSPACES = SMOKE ? 100 : 10_000;
const CONNECTIONS = SMOKE ? 4 : 32;
const DURATION = SMOKE ? 1 : 20;
const TARGET_RATIO = 0.25;
const TARGET_P99_MS = 20;
// Workspaces set aside per role (by position in the seed: ws-000000, ...).
const LOCKABLE = SMOKE ? 20 : 1000;
const WRITABLE = SMOKE ? 20 : 1000;
const WITH_STATE = SMOKE ? 3 : 50;
const TAGGED = SMOKE ? 10 : 200;
const TAG = 'mixed';

/** What the load acts on: ids and names from the seed, the default project, the pools. */
async function planOf(seedFile) {
  const { default: Database } = await import('better-sqlite3');
  const db = new Database(seedFile, { readonly: true });
  const rows = db.prepare('select id, name from workspaces order by name').all();
  const projectId = db.prepare('select id from projects where is_default = 1').pluck().get();
  db.close();
  const slice = (from, n) => rows.slice(from, from + n);
  return {
    org: 'bench',
    projectId,
    tag: TAG,
    ids: rows.map((r) => r.id),
    names: rows.map((r) => r.name),
    lockIds: slice(0, LOCKABLE).map((r) => r.id),
    writeIds: slice(LOCKABLE, WRITABLE).map((r) => r.id),
    stateIds: slice(LOCKABLE + WRITABLE, WITH_STATE).map((r) => r.id),
    taggedIds: slice(LOCKABLE + WRITABLE + WITH_STATE, TAGGED).map((r) => r.id),
  };
}

/** Through the API, before the load: a state version on some workspaces, a flat tag on others. */
async function prepare(berth, plan) {
  const state = (serial) =>
    Buffer.from(
      JSON.stringify({
        version: 4,
        terraform_version: '1.13.3',
        serial,
        lineage: randomUUID(),
        outputs: { endpoint: { value: 'https://example.test', type: 'string' } },
        resources: [],
      }),
    );
  const work = [
    ...plan.stateIds.map((id) => async () => {
      const body = state(1);
      await api(berth, 'POST', `/api/v2/workspaces/${id}/actions/lock`, { reason: 'seed' });
      await api(berth, 'POST', `/api/v2/workspaces/${id}/state-versions`, {
        data: {
          type: 'state-versions',
          attributes: { serial: 1, md5: createHash('md5').update(body).digest('hex'), state: body.toString('base64') },
        },
      });
      await api(berth, 'POST', `/api/v2/workspaces/${id}/actions/unlock`);
    }),
    ...plan.taggedIds.map((id) => async () => {
      const res = await fetch(`${berth.url}/api/v2/workspaces/${id}/relationships/tags`, {
        method: 'POST',
        headers: { authorization: `Bearer ${berth.token}`, 'content-type': 'application/vnd.api+json' },
        body: JSON.stringify({ data: [{ type: 'tags', attributes: { name: TAG } }] }),
      });
      if (res.status !== 204) throw new Error(`tagging ${id}: ${res.status} ${await res.text()}`);
    }),
  ];
  const workers = Array.from({ length: 8 }, async () => {
    for (let job = work.shift(); job; job = work.shift()) await job();
  });
  await Promise.all(workers);
}

/** A bare node:http server (own process) answering `/k/KIND` with `sizes[KIND]` bytes of JSON. */
async function startMixedReference(sizes) {
  const script = `
    const sizes = ${JSON.stringify(sizes)};
    const bodies = new Map(Object.entries(sizes).map(([kind, n]) => [
      '/k/' + encodeURIComponent(kind),
      JSON.stringify({ data: { pad: 'x'.repeat(Math.max(0, n - 22)) } }),
    ]));
    const server = require('node:http').createServer((req, res) => {
      const body = bodies.get(req.url) ?? '{}';
      res.writeHead(200, { 'content-type': 'application/vnd.api+json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
    server.listen(0, '127.0.0.1', () => console.log('listening ' + server.address().port));
    process.on('SIGTERM', () => server.close(() => process.exit(0)));`;
  return startScriptServer(script, [], 'reference server');
}

/**
 * Runs bench/lib/mixed-load.mjs in a child process and returns its JSON summary. The options
 * (10,000 ids and names) go through a file: they are too long for a command line.
 */
function runMixedLoad(options) {
  const dir = mkdtempSync(join(tmpdir(), 'berth-mixed-load-'));
  const file = join(dir, 'options.json');
  writeFileSync(file, JSON.stringify(options));
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bench', 'lib', 'mixed-load.mjs'), file], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.once('exit', (code) => {
      rmSync(dir, { recursive: true, force: true });
      if (code !== 0) return reject(new Error(`mixed load generator failed (${code}): ${out}`));
      resolve(JSON.parse(out));
    });
  });
}

const ms = (v) => (v === undefined ? '-' : v < 10 ? v.toFixed(1) : v.toFixed(0));
const met = (ok) => (ok ? 'met' : 'NOT met');

/** The mixed load against a fresh `berth serve`, then against the reference; prints the summary. */
export async function mixed() {
  const seed = await seededDatabase(MIXED_WORKSPACES);
  const plan = await planOf(seed);
  // The serve process writes its read cache counters into this file when it stops.
  const statsDir = mkdtempSync(join(tmpdir(), 'berth-mixed-'));
  const statsFile = join(statsDir, 'read-cache.json');
  const before = process.env.BERTH_READ_CACHE_STATS;
  process.env.BERTH_READ_CACHE_STATS = statsFile;
  let berth;
  try {
    berth = await startBerth(seed);
  } finally {
    if (before === undefined) delete process.env.BERTH_READ_CACHE_STATS;
    else process.env.BERTH_READ_CACHE_STATS = before;
  }
  let own;
  let cache;
  try {
    await prepare(berth, plan);
    own = await runMixedLoad({
      url: berth.url,
      token: berth.token,
      connections: CONNECTIONS,
      duration: DURATION,
      plan,
    });
  } finally {
    await berth.stop();
  }
  try {
    cache = JSON.parse(readFileSync(statsFile, 'utf8'));
  } finally {
    rmSync(statsDir, { recursive: true, force: true });
  }
  const sizes = Object.fromEntries(Object.entries(own.kinds).map(([kind, k]) => [kind, k.bytes]));
  const reference = await startMixedReference(sizes);
  let ref;
  try {
    ref = await runMixedLoad({
      url: reference.url,
      token: 'none',
      connections: CONNECTIONS,
      duration: DURATION,
      plan,
      reference: true,
    });
  } finally {
    await reference.stop();
  }

  const ratio = own.perSecond / ref.perSecond;
  console.log(
    `mixed: ${MIXED_WORKSPACES} workspaces, ${CONNECTIONS} connections, ${DURATION} s each; per cycle of 10: 7 GETs, a lock/unlock pair, 1 write`,
  );
  const line = (label, r) =>
    `  ${label.padEnd(22)} ${r.perSecond.toFixed(0).padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  (${r.requests} requests, ${r.errors} errors, ${r.non2xx} non-2xx)`;
  console.log(line('node:http reference', ref));
  console.log(line('berth serve', own));
  console.log(
    `  ratio                  ${ratio.toFixed(2)} of the reference's requests/s (target >= ${TARGET_RATIO}: ${met(ratio >= TARGET_RATIO)})`,
  );
  const hits = cache.lookups > 0 ? (100 * cache.hits) / cache.lookups : 0;
  console.log(
    `  read cache             ${hits.toFixed(1)}% of ${cache.lookups} GET lookups answered from it (${cache.hits} hits, ${cache.stored} answers stored)`,
  );
  console.log(
    `  per kind (berth)                   count    p50 ms   p99 ms   bytes  non-2xx   p99 target < ${TARGET_P99_MS} ms`,
  );
  for (const [kind, k] of Object.entries(own.kinds).sort(([a], [b]) => a.localeCompare(b)))
    console.log(
      `    ${kind.padEnd(30)} ${String(k.count).padStart(7)} ${ms(k.p50).padStart(9)} ${ms(k.p99).padStart(8)} ${String(k.bytes).padStart(7)} ${String(k.non2xx).padStart(8)}   ${met(k.p99 < TARGET_P99_MS)}`,
    );
  return { own, ref, ratio, cache };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  ensureBuilt();
  await mixed();
}
