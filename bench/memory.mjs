#!/usr/bin/env node
// Resident memory of `berth serve` after load: one serve process takes the serve-read load and
// then the write-rate load (their summary lines are printed too), then its VmRSS is read from
// /proc. Target: <= 200 MB.
//   node bench/memory.mjs [--smoke]
import { ensureBuilt, seededDatabase } from './lib.mjs';
import { residentMb, startBerth } from './lib/server.mjs';
import { READ_WORKSPACES, serveRead } from './serve-read.mjs';
import { writeRate } from './write-rate.mjs';

ensureBuilt();
const berth = await startBerth(await seededDatabase(READ_WORKSPACES));
try {
  const idle = residentMb(berth.pid);
  await serveRead(berth);
  await writeRate(berth);
  const loaded = residentMb(berth.pid);
  console.log(`memory: berth serve resident memory (VmRSS), pid ${berth.pid}`);
  console.log(`  after start            ${idle.toFixed(1)} MB`);
  console.log(`  after serve-read and write-rate  ${loaded.toFixed(1)} MB (target <= 200)`);
} finally {
  await berth.stop();
}
