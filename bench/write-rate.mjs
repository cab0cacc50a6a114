#!/usr/bin/env node
// Write throughput of `berth serve`: 10,000 workspace creates over HTTP from 8 concurrent
// connections, then 10,000 lock/unlock pairs (autocannon in its own process).
// Targets: >= 1,000 creates/s, >= 2,000 lock-unlock pairs/s, zero errors.
//   node bench/write-rate.mjs [--smoke]
import { pathToFileURL } from 'node:url';
import { ensureBuilt, seededDatabase, SMOKE } from './lib.mjs';
import { runLoad, startBerth } from './lib/server.mjs';

const COUNT = SMOKE ? 200 : 10_000;
const CONNECTIONS = 8;

/** Runs the write load against a running berth, prints the summary lines. */
export async function writeRate(berth) {
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
  console.log(`write-rate: ${COUNT} creates, then ${COUNT} lock/unlock pairs, ${CONNECTIONS} connections`);
  console.log(
    `  creates                ${c.perSecond.toFixed(0).padStart(6)} /s  p99 ${c.p99} ms  (${c.ids} created in ${c.seconds.toFixed(2)} s, ${c.errors} errors, ${c.non2xx} non-2xx; target >= 1000/s, 0 errors)`,
  );
  console.log(
    `  lock/unlock pairs      ${p.pairsPerSecond.toFixed(0).padStart(6)} /s  p99 ${p.p99} ms  (${p.pairs} pairs in ${p.seconds.toFixed(2)} s, ${p.errors} errors, ${p.non2xx} non-2xx; target >= 2000/s, 0 errors)`,
  );
  return r;
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  ensureBuilt();
  const berth = await startBerth(await seededDatabase(SMOKE ? 100 : 10_000));
  try {
    await writeRate(berth);
  } finally {
    await berth.stop();
  }
}
