#!/usr/bin/env node
// Resident memory of `berth serve` after load: one serve process takes the serve-read load and
// then the write-rate load (their summary lines are printed too), then its VmRSS is read from
// /proc, at once and again once the server has been quiet for IDLE_MS: serve gives back what the
// load's garbage left (a collection within a second of the last request, src/api/idle-gc.ts).
// Target: <= 200 MB for the second figure, the memory a server holds between bursts.
// Then the hostile scenario of issue 19 (bench/lib/hostile.mjs) on a second serve at the default
// rate limit: one user with four tokens stores 100 workspaces with every text at its limit and
// hammers their list page with every include; the peak VmRSS, sampled every 50 ms, is printed.
// Target: < MEMORY_BOUND_MB (640 MB, the bound test/reliability/memory-bound.test.ts asserts).
//   node bench/memory.mjs [--smoke]
import { ensureBuilt, seededDatabase, SMOKE } from './lib.mjs';
import { MEMORY_BOUND_MB, hammer, rssMb, setUpHostileTenant } from './lib/hostile.mjs';
import { residentMb, startBerth } from './lib/server.mjs';
import { READ_WORKSPACES, serveRead } from './serve-read.mjs';
import { writeRate } from './write-rate.mjs';

ensureBuilt();
const berth = await startBerth(await seededDatabase(READ_WORKSPACES));
/** Quiet time before the second reading: the idle collection comes within a second. */
const IDLE_MS = 2000;
let idle;
let loaded;
let settled;
try {
  idle = residentMb(berth.pid);
  await serveRead(berth);
  await writeRate(berth);
  loaded = residentMb(berth.pid);
  await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
  settled = residentMb(berth.pid);
} finally {
  await berth.stop();
}

const hostile = await startBerth(await seededDatabase(READ_WORKSPACES), ['--rate-limit', '30']);
let result;
let started;
try {
  const tenant = await setUpHostileTenant(hostile.url, hostile.token);
  started = rssMb(hostile.pid);
  result = await hammer(hostile.url, hostile.pid, tenant, { seconds: SMOKE ? 3 : 15 });
} finally {
  await hostile.stop();
}
console.log(`memory: berth serve resident memory (VmRSS), pid ${berth.pid}`);
console.log(`  after start            ${idle.toFixed(1)} MB`);
console.log(`  after serve-read and write-rate  ${loaded.toFixed(1)} MB (target <= 200)`);
console.log(`  then ${IDLE_MS / 1000} s quiet         ${settled.toFixed(1)} MB (target <= 200)`);
console.log(
  `  hostile tenant, peak   ${result.peakMb.toFixed(1)} MB (target < ${MEMORY_BOUND_MB}; from ${started.toFixed(1)} MB, ${result.answered} answers, largest ${(result.largestAnswerBytes / 1e6).toFixed(2)} M characters${result.gone ? ', SERVE DIED' : ''})`,
);
