#!/usr/bin/env node
// Start-up cost of the CLI: a local `berth workspace show` on a database with 10,000 workspaces,
// against `node -e 0` measured in the same run. Prints medians and their ratio (target: <= 2.0).
//   node bench/cli-startup.mjs [--smoke]
import { BIN, ensureBuilt, median, seededDatabase, SMOKE, timeRun } from './lib.mjs';

ensureBuilt();
const count = SMOKE ? 100 : 10_000;
const runs = SMOKE ? 3 : 21;
const db = await seededDatabase(count);
const env = { BERTH_DB: db, BERTH_ORG: 'bench', NO_COLOR: '1' };
const target = `ws-${String(Math.floor(count / 2)).padStart(6, '0')}`;

// Warm the file cache once, then alternate the two so that machine noise hits both alike.
timeRun(process.execPath, [BIN, 'workspace', 'show', target], env);
const node = [];
const berth = [];
for (let i = 0; i < runs; i++) {
  node.push(timeRun(process.execPath, ['-e', '0']));
  berth.push(timeRun(process.execPath, [BIN, 'workspace', 'show', target], env));
}
const n = median(node);
const b = median(berth);
console.log(`cli-startup: ${count} workspaces, ${runs} runs each`);
console.log(`  node -e 0               median ${n.toFixed(1)} ms`);
console.log(`  berth workspace show    median ${b.toFixed(1)} ms`);
console.log(`  ratio                   ${(b / n).toFixed(2)} (target <= 2.0)`);
