#!/usr/bin/env node
// serve-read and write-rate on PostgreSQL, with one and with two `berth serve` instances on one
// database, against the same loads on SQLite in the same run (as shipped, with the read cache,
// which the ratios compare with; and without it, for context). With two instances the load is split between them
// (two load generators, half the connections each) and their rates are added.
// Writes take the write lock of their organization (src/store/transaction.ts): with one
// organization, two instances still take turns (that row is also what every write did under the
// former single global lock); the last run gives each instance's load generator an organization
// of its own, so the two instances' writes no longer wait for each other.
//   node bench/postgres.mjs [--smoke]
import { ensureBuilt, seededDatabase, SMOKE } from './lib.mjs';
import { addOrganization, benchPostgres, seededPostgres } from './lib/postgres.mjs';
import { api, runLoad, startBerth, startBerthsOnPostgres } from './lib/server.mjs';

const WORKSPACES = SMOKE ? 100 : 10_000;
const READ_CONNECTIONS = 32;
const READ_SECONDS = SMOKE ? 1 : 10;
const WRITES = SMOKE ? 200 : 10_000;
const WRITE_CONNECTIONS = 8;

/** The read load split over `servers`: total req/s, worst p99, errors. */
async function readLoad(servers, path) {
  const results = await Promise.all(
    servers.map((s) =>
      runLoad({
        mode: 'read',
        url: s.url,
        path,
        token: s.token,
        connections: READ_CONNECTIONS / servers.length,
        duration: READ_SECONDS,
      }),
    ),
  );
  return {
    perSecond: results.reduce((n, r) => n + r.perSecond, 0),
    p99: Math.max(...results.map((r) => r.p99)),
    failed: results.reduce((n, r) => n + r.errors + r.non2xx, 0),
  };
}

/**
 * The write load split over `servers` (server i writes in `organizations[i]`, else in `bench`):
 * creates/s, lock-unlock pairs/s, worst p99s, errors.
 */
async function writeLoad(servers, organizations = []) {
  const results = await Promise.all(
    servers.map((s, i) =>
      runLoad({
        mode: 'write',
        url: s.url,
        token: s.token,
        organization: organizations[i] ?? 'bench',
        connections: WRITE_CONNECTIONS / servers.length,
        count: WRITES / servers.length,
      }),
    ),
  );
  // The generators start together; the slowest one sets the time of the whole load.
  const creates = results.reduce((n, r) => n + r.created.ids, 0);
  const createSeconds = Math.max(...results.map((r) => r.created.seconds));
  const pairs = results.reduce((n, r) => n + r.pairs.pairs, 0);
  const pairSeconds = Math.max(...results.map((r) => r.pairs.seconds));
  return {
    createsPerSecond: creates / createSeconds,
    createP99: Math.max(...results.map((r) => r.created.p99)),
    pairsPerSecond: pairs / pairSeconds,
    pairP99: Math.max(...results.map((r) => r.pairs.p99)),
    failed: results.reduce((n, r) => n + r.created.errors + r.created.non2xx + r.pairs.errors + r.pairs.non2xx, 0),
  };
}

async function measure(servers, organizations = []) {
  const name = `ws-${String(Math.floor(WORKSPACES / 2)).padStart(6, '0')}`;
  const shown = await api(servers[0], 'GET', `/api/v2/organizations/bench/workspaces/${name}`);
  const read = await readLoad(servers, `/api/v2/workspaces/${shown.json.data.id}`);
  const write = await writeLoad(servers, organizations);
  return { read, write };
}

ensureBuilt();
const seed = await seededDatabase(WORKSPACES);
const rows = [];
for (const [label, args] of [
  ['sqlite, read cache on', []],
  ['sqlite, read cache off', ['--read-cache', '0']],
]) {
  const berth = await startBerth(seed, args);
  try {
    rows.push([label, await measure([berth])]);
  } finally {
    await berth.stop();
  }
}
const server = benchPostgres();
try {
  for (const [instances, organizations] of [
    [1, 1],
    [2, 1],
    [2, 2],
  ]) {
    const db = await seededPostgres(server.url, seed);
    const servers = await startBerthsOnPostgres(db.url, db.token, instances);
    try {
      // The second instance's load writes in an organization of its own (the seed's has 10,000 workspaces).
      const orgs = organizations === 1 ? [] : ['bench', await addOrganization(servers[1], 'bench-2')];
      const label = `postgres, ${instances} instance${instances > 1 ? 's' : ''}${organizations > 1 ? `, ${organizations} orgs` : ''}`;
      rows.push([label, await measure(servers, orgs)]);
    } finally {
      await Promise.all(servers.map((s) => s.stop()));
      await db.drop();
    }
  }
} finally {
  server.stop();
}

const base = rows[0][1];
const ratio = (x, y) => (x / y).toFixed(2);
console.log(
  `postgres: serve-read (${READ_CONNECTIONS} connections, ${READ_SECONDS} s) and write-rate (${WRITES} creates, then ${WRITES} lock/unlock pairs, ${WRITE_CONNECTIONS} connections), ${WORKSPACES} workspaces`,
);
console.log(
  '  store                            reads/s  p99 ms   creates/s  p99 ms   pairs/s  p99 ms  failed   vs sqlite (reads, creates, pairs)',
);
for (const [label, { read, write }] of rows) {
  console.log(
    `  ${label.padEnd(30)} ${read.perSecond.toFixed(0).padStart(9)} ${String(read.p99).padStart(7)} ${write.createsPerSecond.toFixed(0).padStart(11)} ${String(write.createP99).padStart(7)} ${write.pairsPerSecond.toFixed(0).padStart(9)} ${String(write.pairP99).padStart(7)} ${String(read.failed + write.failed).padStart(7)}   ${ratio(read.perSecond, base.read.perSecond)}, ${ratio(write.createsPerSecond, base.write.createsPerSecond)}, ${ratio(write.pairsPerSecond, base.write.pairsPerSecond)}`,
  );
}

// Writes in two organizations on two instances against one instance (one organization) and against
// two instances in one organization (the former global lock: every write took turns). Target:
// the two organizations' writes do not wait for each other, so they go faster than the same two
// instances in one organization (at least 1.2x; on a machine of 2 cores, which the two instances,
// their load generators and PostgreSQL share, the CPU rather than the lock soon sets the pace).
const byLabel = Object.fromEntries(rows);
const one = byLabel['postgres, 1 instance'].write;
const shared = byLabel['postgres, 2 instances'].write;
const split = byLabel['postgres, 2 instances, 2 orgs'].write;
const TARGET = 1.2;
for (const [what, key] of [
  ['creates/s', 'createsPerSecond'],
  ['pairs/s', 'pairsPerSecond'],
]) {
  const vsShared = split[key] / shared[key];
  console.log(
    `  two organizations on two instances: ${what} ${split[key].toFixed(0)} = ${ratio(split[key], one[key])}x one instance, ${vsShared.toFixed(2)}x two instances in one organization (target >= ${TARGET}x: ${vsShared >= TARGET ? 'met' : 'NOT met'})`,
  );
}
