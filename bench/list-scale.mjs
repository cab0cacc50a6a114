#!/usr/bin/env node
// Workspace list queries at scale: the API app called in-process (no socket), medians at 100,000
// workspaces (50 projects, flat tags, tag bindings) against the same query at 1,000.
// Targets: every median <= 20 ms at the large size, and <= 3x its own time at the small one.
//   node bench/list-scale.mjs [--smoke]
import { inProcessApi } from './lib/inproc.mjs';
import { median, seededTaggedDatabase, SMOKE } from './lib.mjs';

const LARGE = SMOKE ? 300 : 100_000;
const SMALL = SMOKE ? 30 : 1_000;
const RUNS = SMOKE ? 3 : 21;

/** The queries, given the id of one project of the seed. Every one asks for a page of 100. */
function queries(projectId) {
  const list = (q) => `/api/v2/organizations/bench/workspaces?page%5Bsize%5D=100${q ? `&${q}` : ''}`;
  return [
    ['sort=name', list('sort=name')],
    ['search[tags]=a,b', list('search%5Btags%5D=a,b')],
    ['search[exclude-tags]=c', list('search%5Bexclude-tags%5D=c')],
    ['search[wildcard-name]=*-prod-*', list('search%5Bwildcard-name%5D=*-prod-*')],
    ['search[name]=svc17-', list('search%5Bname%5D=svc17-')],
    ['filter[project][id]', list(`filter%5Bproject%5D%5Bid%5D=${projectId}`)],
    [
      'filter[tagged] env=prod',
      list('filter%5Btagged%5D%5B0%5D%5Bkey%5D=env&filter%5Btagged%5D%5B0%5D%5Bvalue%5D=prod'),
    ],
    ['sort=-latest-change-at', list('sort=-latest-change-at')],
    ['include=effective_tag_bindings', list('include=effective_tag_bindings')],
  ];
}

async function measure(count) {
  const api = await inProcessApi(await seededTaggedDatabase(count));
  // As `berth serve` does at start: planner statistics (PRAGMA optimize).
  api.store.optimize();
  try {
    const project = await api.store.db
      .selectFrom('projects')
      .select('id')
      .where('name', '=', 'proj-07')
      .executeTakeFirstOrThrow();
    const out = new Map();
    for (const [label, path] of queries(project.id)) {
      for (let i = 0; i < 3; i++) await api.get(path);
      const times = [];
      let total = 0;
      for (let i = 0; i < RUNS; i++) {
        const started = process.hrtime.bigint();
        const doc = await api.get(path);
        times.push(Number(process.hrtime.bigint() - started) / 1e6);
        total = doc.meta?.pagination?.['total-count'] ?? 0;
      }
      out.set(label, { ms: median(times), total });
    }
    return out;
  } finally {
    await api.close();
  }
}

const large = await measure(LARGE);
const small = await measure(SMALL);
console.log(`list-scale: ${LARGE} vs ${SMALL} workspaces, page of 100, median of ${RUNS} in-process calls`);
let worst = 0;
for (const [label, l] of large) {
  const s = small.get(label);
  const ratio = l.ms / s.ms;
  worst = Math.max(worst, ratio);
  console.log(
    `  ${label.padEnd(32)} ${l.ms.toFixed(2).padStart(7)} ms at ${LARGE} (${l.total} match)  ${s.ms.toFixed(2).padStart(6)} ms at ${SMALL} (${s.total} match)  ratio ${ratio.toFixed(2)} (targets <= 20 ms, <= 3.0)`,
  );
}
const slowest = Math.max(...[...large.values()].map((l) => l.ms));
console.log(
  `  slowest median ${slowest.toFixed(2)} ms (target <= 20), worst ratio ${worst.toFixed(2)} (target <= 3.0)`,
);
