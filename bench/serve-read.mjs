#!/usr/bin/env node
// Read throughput of `berth serve`: GET /api/v2/workspaces/:id with a valid token, 32 connections
// for 10 s (autocannon in its own process), on a database with 10,000 workspaces; against a bare
// node:http server answering a JSON body of the same size, measured in the same run. Then the
// same load on a second `berth serve` with its read cache off (`--read-cache 0`): every answer
// computed, as under traffic that writes (any write empties the cache in effect).
// Last, the ceiling of the uncached load (bench/lib/read-ceiling.mjs): a bare node:http server
// that reads the workspace with one SQL statement of the shape berth's has and serializes the same
// document, with no framework, authentication or berth code: how far the uncached target is
// within reach of any Node server on this machine.
// Targets: berth >= 50% of the reference's requests/s (read cache on), >= 25% with the read cache
// off; p99 < 20 ms for both.
//   node bench/serve-read.mjs [--smoke]
import { pathToFileURL } from 'node:url';
import { ensureBuilt, seededDatabase, SMOKE } from './lib.mjs';
import { startReadCeiling } from './lib/read-ceiling.mjs';
import { api, runLoad, startBerth, startReference } from './lib/server.mjs';

export const READ_WORKSPACES = SMOKE ? 100 : 10_000;
const CONNECTIONS = 32;
const DURATION = SMOKE ? 1 : 10;

const met = (ok) => (ok ? 'met' : 'NOT met');
const line = (label, r) =>
  `  ${label.padEnd(22)} ${r.perSecond.toFixed(0).padStart(7)} req/s  p50 ${r.p50} ms  p99 ${r.p99} ms  (${r.requests} requests, ${r.errors} errors, ${r.non2xx} non-2xx)`;

/** The path of the workspace the load reads, and the size of its answer. */
async function target(berth) {
  const name = `ws-${String(Math.floor(READ_WORKSPACES / 2)).padStart(6, '0')}`;
  const shown = await api(berth, 'GET', `/api/v2/organizations/bench/workspaces/${name}`);
  const path = `/api/v2/workspaces/${shown.json.data.id}`;
  const { text, json } = await api(berth, 'GET', path);
  return { path, id: shown.json.data.id, document: json, bytes: Buffer.byteLength(text) };
}

/** The read load (GET `path`, CONNECTIONS connections for DURATION s) against the server at `url`. */
const readLoad = (url, path, token) =>
  runLoad({ mode: 'read', url, path, token, connections: CONNECTIONS, duration: DURATION });

/** Runs the read load against a running berth (and the reference), prints the summary lines. */
export async function serveRead(berth) {
  const { path, bytes } = await target(berth);
  const reference = await startReference(bytes);
  let ref;
  try {
    ref = await readLoad(reference.url, path, 'none');
  } finally {
    await reference.stop();
  }
  const own = await readLoad(berth.url, path, berth.token);
  console.log(
    `serve-read: GET /api/v2/workspaces/:id, ${READ_WORKSPACES} workspaces, body ${bytes} bytes, ${CONNECTIONS} connections, ${DURATION} s each`,
  );
  console.log(line('node:http reference', ref));
  console.log(line('berth serve', own));
  const ratio = own.perSecond / ref.perSecond;
  console.log(
    `  ratio                  ${ratio.toFixed(2)} of the reference's requests/s (target >= 0.50: ${met(ratio >= 0.5)})`,
  );
  console.log(`  berth p99              ${own.p99} ms (target < 20: ${met(own.p99 < 20)})`);
  return { own, ref };
}

/**
 * The same load against a berth started with `--read-cache 0`, against the reference's figures
 * of `serveRead` (same run, same body size): the cost of computing every answer.
 */
export async function serveReadUncached(berth, ref) {
  const { path } = await target(berth);
  const own = await readLoad(berth.url, path, berth.token);
  console.log(line('berth, no read cache', own));
  const ratio = own.perSecond / ref.perSecond;
  console.log(
    `  ratio, no read cache   ${ratio.toFixed(2)} of the reference's requests/s (target >= 0.25: ${met(ratio >= 0.25)})`,
  );
  console.log(`  p99, no read cache     ${own.p99} ms (target < 20: ${met(own.p99 < 20)})`);
  return own;
}

/**
 * The uncached load against the ceiling server (read-ceiling.mjs) over the same seed: what no
 * framework, authentication or berth code at all would reach, as a ratio to the same reference.
 */
export async function readCeiling(berth, seed, ref, uncached) {
  const { path, id, document } = await target(berth);
  const ceiling = await startReadCeiling(seed, id, document);
  let own;
  try {
    own = await readLoad(ceiling.url, path, 'none');
  } finally {
    await ceiling.stop();
  }
  console.log(line('ceiling, no framework', own));
  console.log(
    `  ratio, ceiling         ${(own.perSecond / ref.perSecond).toFixed(2)} of the reference's requests/s ` +
      `(node:http, one SQL statement, JSON.stringify; berth without its read cache is ${(uncached.perSecond / own.perSecond).toFixed(2)} of it)`,
  );
  return own;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  ensureBuilt();
  const seed = await seededDatabase(READ_WORKSPACES);
  const berth = await startBerth(seed);
  let ref;
  try {
    ({ ref } = await serveRead(berth));
  } finally {
    await berth.stop();
  }
  const uncached = await startBerth(seed, ['--read-cache', '0']);
  try {
    const own = await serveReadUncached(uncached, ref);
    await readCeiling(uncached, seed, ref, own);
  } finally {
    await uncached.stop();
  }
}
