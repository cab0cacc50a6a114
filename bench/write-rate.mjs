#!/usr/bin/env node
// Write throughput of `berth serve`: 10,000 workspace creates over HTTP from 8 concurrent
// connections, then 10,000 lock/unlock pairs (autocannon in its own process), once per durability
// (`--durability full`, the default, then `normal`). The reference, measured in the same run: the
// storage floor, the same lock/unlock transactions done with better-sqlite3 alone on a copy of
// the same seed with the same pragmas (bench/lib/storage-floor.mjs); and the ceiling of the
// pairs, the same load against a bare node:http server that does those transactions with group
// commit and answers the same document, with no framework, authentication or berth code
// (bench/lib/write-ceiling.mjs).
// Targets: >= 3,000 creates/s, >= 3,000 lock/unlock pairs/s, zero errors.
//   node bench/write-rate.mjs [--smoke]
import { pathToFileURL } from 'node:url';
import { ensureBuilt, seededDatabase, SMOKE } from './lib.mjs';
import { api, runLoad, startBerth } from './lib/server.mjs';
import { storageFloor } from './lib/storage-floor.mjs';
import { startWriteCeiling } from './lib/write-ceiling.mjs';

const COUNT = SMOKE ? 200 : 10_000;
const CONNECTIONS = 8;
const FLOOR_PAIRS = SMOKE ? 200 : 3_000;
const TARGET = { creates: 3000, pairs: 3000 };
const DURABILITIES = ['full', 'normal'];

const verdict = (ok) => (ok ? 'met' : 'NOT met');

/**
 * Runs the write load against a running berth and prints the summary lines; with `floor` (the
 * storage floor's pairs/s at the same durability), also berth's ratio to it.
 */
export async function writeRate(berth, { durability, floor } = {}) {
  const r = await runLoad({
    mode: 'write',
    url: berth.url,
    token: berth.token,
    organization: 'bench',
    connections: CONNECTIONS,
    count: COUNT,
  });
  const c = r.created;
  const p = r.pairs;
  const mode = durability ? `, durability ${durability}` : '';
  console.log(`write-rate: ${COUNT} creates, then ${COUNT} lock/unlock pairs, ${CONNECTIONS} connections${mode}`);
  const createsMet = c.perSecond >= TARGET.creates && c.errors + c.non2xx === 0;
  const pairsMet = p.pairsPerSecond >= TARGET.pairs && p.errors + p.non2xx === 0;
  console.log(
    `  creates                ${c.perSecond.toFixed(0).padStart(6)} /s  p99 ${c.p99} ms  (${c.ids} created in ${c.seconds.toFixed(2)} s, ${c.errors} errors, ${c.non2xx} non-2xx; target >= ${TARGET.creates}/s, 0 errors) ${verdict(createsMet)}`,
  );
  console.log(
    `  lock/unlock pairs      ${p.pairsPerSecond.toFixed(0).padStart(6)} /s  p99 ${p.p99} ms  (${p.pairs} pairs in ${p.seconds.toFixed(2)} s, ${p.errors} errors, ${p.non2xx} non-2xx; target >= ${TARGET.pairs}/s, 0 errors) ${verdict(pairsMet)}`,
  );
  if (floor)
    console.log(
      `  storage floor          ${floor.pairsPerSecond.toFixed(0).padStart(6)} pairs/s (better-sqlite3 alone, same seed and pragmas, a transaction per lock and per unlock); berth's pairs ${(p.pairsPerSecond / floor.pairsPerSecond).toFixed(2)} of it`,
    );
  return r;
}

/**
 * The lock/unlock pairs of the write ceiling at `durability`, answering with `document`, and its
 * line beside berth's `pairsPerSecond`.
 */
async function writeCeiling(seed, { durability, document, pairsPerSecond }) {
  const ceiling = await startWriteCeiling(seed, { durability, document, count: COUNT });
  try {
    const c = await runLoad({
      mode: 'pairs',
      url: ceiling.url,
      token: 'none',
      connections: CONNECTIONS,
      count: COUNT,
      idsFile: ceiling.idsFile,
    });
    console.log(
      `  ceiling, no framework  ${c.pairsPerSecond.toFixed(0).padStart(6)} pairs/s  p99 ${c.p99} ms  (${c.pairs} pairs, ${c.errors} errors, ${c.non2xx} non-2xx; node:http, the floor's transactions with group commit); berth's pairs ${(pairsPerSecond / c.pairsPerSecond).toFixed(2)} of it`,
    );
  } finally {
    await ceiling.stop();
  }
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  ensureBuilt();
  const seed = await seededDatabase(SMOKE ? 100 : 10_000);
  for (const durability of DURABILITIES) {
    const floor = await storageFloor(seed, { durability, pairs: FLOOR_PAIRS });
    const berth = await startBerth(seed, ['--durability', durability]);
    let document;
    let pairsPerSecond;
    try {
      // The document of a lock answer, for the ceiling to answer with.
      const { json } = await api(berth, 'GET', '/api/v2/organizations/bench/workspaces?page%5Bsize%5D=1');
      document = { data: json.data[0] };
      pairsPerSecond = (await writeRate(berth, { durability, floor })).pairs.pairsPerSecond;
    } finally {
      await berth.stop();
    }
    await writeCeiling(seed, { durability, document, pairsPerSecond });
  }
}
