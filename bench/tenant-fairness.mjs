#!/usr/bin/env node
// One tenant's large pages must not stall every other tenant (issue 32, item 2). On a `berth
// serve` at the default rate limit (30 requests a second), an ordinary user with four tokens creates an
// organization with 100 teams and invites 1,000 made-up emails into them (each into every team),
// then keeps four requests in flight from each token for its memberships' pages of 100 with
// `include=user,teams`, and then for its teams with `include=users,organization-memberships`.
// Meanwhile another organization's reader (the site administrator, a token of its own) reads its
// workspaces one by one (`GET /api/v2/workspaces/:id`, a different one each time, so that the read
// cache answers none of them) and a monitor asks `/healthz`, each with one request in flight, from
// a process of their own (bench/lib/probe.mjs). First the same probes with nobody hammering: the
// reference.
// Target: the other tenant's read p99 < 50 ms while the hostile tenant hammers.
//   node bench/tenant-fairness.mjs [--smoke]
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { ensureBuilt, ROOT, seededDatabase, SMOKE } from './lib.mjs';
import { setUpCrowd } from './lib/crowd.mjs';
import { LOOPS_PER_TOKEN, TOKENS } from './lib/hostile.mjs';
import { api, startBerth } from './lib/server.mjs';

const WORKSPACES = SMOKE ? 100 : 1000;
const TEAMS = SMOKE ? 5 : 100;
const INVITES = SMOKE ? 50 : 1000;
const SECONDS = SMOKE ? 2 : 10;
/** The pause of each probe between two requests (the reader stays under its rate limit). */
const INTERVAL_MS = 50;
const TARGET_P99_MS = 50;

const met = (ok) => (ok ? 'met' : 'NOT met');
const ms = (n) => `${n.toFixed(1).padStart(7)} ms`;

/**
 * Every token keeps LOOPS_PER_TOKEN requests in flight, each for the next of `paths`, until
 * `stop()` resolves; answers are read as bytes (never parsed: this process must keep up). 429s
 * are waited out.
 */
function hammer(url, tokens, paths) {
  let stopped = false;
  const stats = { answered: 0, failed: 0, bytes: 0, largest: 0, unexpected: [] };
  const loop = async (token, k) => {
    for (let i = k; !stopped; i++) {
      let res;
      let body;
      try {
        res = await fetch(`${url}${paths[i % paths.length]}`, { headers: { authorization: `Bearer ${token}` } });
        body = await res.arrayBuffer();
      } catch (err) {
        // A connection the server closed (a time-out, say): counted, and the loop goes on.
        stats.failed++;
        if (stats.unexpected.length < 5) stats.unexpected.push(String(err?.cause?.code ?? err?.message ?? err));
        continue;
      }
      if (res.status === 429) {
        const wait = Number(res.headers.get('retry-after') ?? '1');
        await new Promise((r) => setTimeout(r, Math.max(50, Math.min(1000, wait * 1000))));
        continue;
      }
      stats.answered++;
      stats.bytes += body.byteLength;
      stats.largest = Math.max(stats.largest, body.byteLength);
      if (res.status !== 200 && stats.unexpected.length < 5)
        stats.unexpected.push(`${res.status} ${Buffer.from(body).toString('utf8', 0, 200)}`);
    }
  };
  const running = Promise.all(tokens.flatMap((t) => Array.from({ length: LOOPS_PER_TOKEN }, (_, k) => loop(t, k))));
  return {
    stop: async () => {
      stopped = true;
      await running;
      return stats;
    },
  };
}

/** Runs bench/lib/probe.mjs for SECONDS: the other tenant's reads and /healthz. */
function probe(url, token, workspacePaths) {
  const options = {
    url,
    seconds: SECONDS,
    intervalMs: INTERVAL_MS,
    probes: [
      { label: 'read', token, paths: workspacePaths },
      { label: 'healthz', paths: ['/healthz'] },
    ],
  };
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [join(ROOT, 'bench', 'lib', 'probe.mjs'), JSON.stringify(options)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.once('exit', (code) => (code === 0 ? resolve(JSON.parse(out)) : reject(new Error(`probe failed (${code})`))));
  });
}

ensureBuilt();
const berth = await startBerth(await seededDatabase(WORKSPACES), ['--rate-limit', '30']);
const lines = [];
let worst = 0;
try {
  const tenant = await setUpCrowd(berth.url, berth.token, { teams: TEAMS, invites: INVITES });
  // The other tenant's workspaces, each read once in turn.
  const workspacePaths = [];
  for (let page = 1; workspacePaths.length < Math.min(WORKSPACES, 500); page++) {
    const list = await api(
      berth,
      'GET',
      `/api/v2/organizations/bench/workspaces?page%5Bsize%5D=100&page%5Bnumber%5D=${page}`,
    );
    if (list.json.data.length === 0) break;
    for (const ws of list.json.data) workspacePaths.push(`/api/v2/workspaces/${ws.id}`);
  }
  const pages = Math.ceil((INVITES + 1) / 100);
  const loads = [
    {
      label: `memberships, page[size]=100&include=user,teams`,
      paths: Array.from(
        { length: pages },
        (_, i) =>
          `/api/v2/organizations/${tenant.org}/organization-memberships?page%5Bsize%5D=100&page%5Bnumber%5D=${i + 1}&include=user,teams`,
      ),
    },
    {
      label: `a team, include=users,organization-memberships`,
      paths: tenant.teamIds.map((id) => `/api/v2/teams/${id}?include=users,organization-memberships`),
    },
  ];
  const quiet = await probe(berth.url, berth.token, workspacePaths);
  lines.push(
    `  nobody hammering        other tenant's read p50 ${ms(quiet.read.p50)}  p99 ${ms(quiet.read.p99)}   /healthz p99 ${ms(quiet.healthz.p99)}  (${quiet.read.requests} reads, ${quiet.read.errors + quiet.healthz.errors} errors)`,
  );
  for (const load of loads) {
    const hammering = hammer(berth.url, tenant.tokens, load.paths);
    const seen = await probe(berth.url, berth.token, workspacePaths);
    const stats = await hammering.stop();
    worst = Math.max(worst, seen.read.p99);
    lines.push(`  hostile tenant: ${load.label}`);
    lines.push(
      `    ${String(stats.answered).padStart(5)} answers, largest ${(stats.largest / 1e6).toFixed(2)} MB, mean ${(stats.bytes / Math.max(1, stats.answered) / 1e6).toFixed(2)} MB, ${stats.failed} failed${stats.unexpected.length ? `, unexpected: ${stats.unexpected.join(' | ')}` : ''}`,
    );
    lines.push(
      `    other tenant's read p50 ${ms(seen.read.p50)}  p99 ${ms(seen.read.p99)}  max ${ms(seen.read.max)}   /healthz p50 ${ms(seen.healthz.p50)}  p99 ${ms(seen.healthz.p99)}  (${seen.read.requests} reads, ${seen.read.errors + seen.healthz.errors} errors)`,
    );
    lines.push(
      `    ratio                  read p99 ${(seen.read.p99 / quiet.read.p99).toFixed(1)}x the quiet one's (target p99 < ${TARGET_P99_MS} ms: ${met(seen.read.p99 < TARGET_P99_MS)})`,
    );
  }
} finally {
  await berth.stop();
}
console.log(
  `tenant-fairness: ${TEAMS} teams, ${INVITES} invitations in every team, ${TOKENS} tokens x ${LOOPS_PER_TOKEN} requests in flight at the default rate limit (30/s), ${SECONDS} s per load`,
);
for (const line of lines) console.log(line);
console.log(
  `  worst read p99           ${worst.toFixed(1)} ms (target < ${TARGET_P99_MS}: ${met(worst < TARGET_P99_MS)})`,
);
