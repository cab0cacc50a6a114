#!/usr/bin/env node
// Workspace list queries at scale: the API app called in-process (no socket), medians at 100,000
// workspaces (50 projects, flat tags, tag bindings) against the same query at 1,000.
// Targets: every median <= 20 ms at the large size (a page of 100), and <= 3x its own time at the
// small one, on equal pages: a page costs in proportion to its rows (each is read and rendered),
// so when the query matches fewer than 100 workspaces at the small size (search[name]=svc17-
// matches 7 of 1,000), the large size is also asked for a page of that many rows, and the ratio
// compares the two. It then measures what grows with the database (finding the page, counting
// the matches), not the difference between rendering 7 rows and 100.
// Both databases are open at once and each round times the large size then the small one, so
// that a busy machine slows both alike.
//   node bench/list-scale.mjs [--smoke]
import { inProcessApi } from './lib/inproc.mjs';
import { median, seededTaggedDatabase, SMOKE } from './lib.mjs';

const LARGE = SMOKE ? 300 : 100_000;
const SMALL = SMOKE ? 30 : 1_000;
const RUNS = SMOKE ? 3 : 21;
const PAGE = 100;
const MAX_MS = 20;
const MAX_RATIO = 3;

/** The queries (without the page size), given the id of one project of the seed. */
function queries(projectId) {
  const enc = (s) => s.replaceAll('[', '%5B').replaceAll(']', '%5D');
  return [
    ['sort=name', 'sort=name'],
    ['sort=-latest-change-at', 'sort=-latest-change-at'],
    ['sort=current-run.created-at', 'sort=current-run.created-at'],
    ['search[name]=svc17- (rare)', enc('search[name]=svc17-')],
    ['search[name]=svc17-prod-eu (rare)', enc('search[name]=svc17-prod-eu')],
    ['search[name]=prod (common)', enc('search[name]=prod')],
    ['search[name]=eu (2 characters)', enc('search[name]=eu')],
    ['search[name]=7 (1 character)', enc('search[name]=7')],
    ['search[name]=nomatch', enc('search[name]=nomatch')],
    ['search[wildcard-name]=svc17-*', enc('search[wildcard-name]=svc17-*')],
    ['search[wildcard-name]=*123', enc('search[wildcard-name]=*123')],
    ['search[wildcard-name]=*-prod-*', enc('search[wildcard-name]=*-prod-*')],
    ['search[tags]=a,b', enc('search[tags]=a,b')],
    ['search[tags]=a,b sort=name', enc('search[tags]=a,b&sort=name')],
    ['search[exclude-tags]=c', enc('search[exclude-tags]=c')],
    ['filter[project][id]', enc(`filter[project][id]=${projectId}`)],
    ['filter[tagged] env=prod', enc('filter[tagged][0][key]=env&filter[tagged][0][value]=prod')],
    ['include=effective_tag_bindings', 'include=effective_tag_bindings'],
  ];
}

const path = (q, size) => `/api/v2/organizations/bench/workspaces?page%5Bsize%5D=${size}&${q}`;

async function open(count) {
  const api = await inProcessApi(await seededTaggedDatabase(count));
  // As `berth serve` does at start: planner statistics (PRAGMA optimize).
  await api.store.optimize();
  return api;
}

/** Medians of `RUNS` rounds, each timing every `[api, path]` once, in turn. */
async function timeRounds(targets) {
  for (let i = 0; i < 3; i++) for (const [api, p] of targets) await api.get(p);
  const times = targets.map(() => []);
  const docs = [];
  for (let i = 0; i < RUNS; i++) {
    for (const [k, [api, p]] of targets.entries()) {
      const started = process.hrtime.bigint();
      docs[k] = await api.get(p);
      times[k].push(Number(process.hrtime.bigint() - started) / 1e6);
    }
  }
  return times.map((t, k) => ({
    ms: median(t),
    rows: docs[k].data.length,
    total: docs[k].meta?.pagination?.['total-count'] ?? 0,
  }));
}

const large = await open(LARGE);
const small = await open(SMALL);
try {
  const project = await large.store.db
    .selectFrom('projects')
    .select('id')
    .where('name', '=', 'proj-07')
    .executeTakeFirstOrThrow();
  const smallProject = await small.store.db
    .selectFrom('projects')
    .select('id')
    .where('name', '=', 'proj-07')
    .executeTakeFirstOrThrow();
  const smallQueries = new Map(queries(smallProject.id));
  console.log(
    `list-scale: ${LARGE} vs ${SMALL} workspaces, median of ${RUNS} in-process calls; targets <= ${MAX_MS} ms for a page of ${PAGE} at ${LARGE}, ratio <= ${MAX_RATIO.toFixed(1)} on equal pages`,
  );
  let slowest = 0;
  let worst = 0;
  let missed = 0;
  for (const [label, q] of queries(project.id)) {
    const sq = smallQueries.get(label);
    const [l, s] = await timeRounds([
      [large, path(q, PAGE)],
      [small, path(sq, PAGE)],
    ]);
    // Equal pages: the large size asked for as many rows as the small one returned.
    const rows = Math.max(1, s.rows);
    const same = l.rows <= rows;
    const [le] = same ? [l] : await timeRounds([[large, path(q, rows)]]);
    const ratio = le.ms / s.ms;
    slowest = Math.max(slowest, l.ms);
    worst = Math.max(worst, ratio);
    const ok = l.ms <= MAX_MS && ratio <= MAX_RATIO;
    if (!ok) missed++;
    const equal = same ? '' : ` (page of ${rows}: ${le.ms.toFixed(2)} ms)`;
    console.log(
      `  ${label.padEnd(36)} ${l.ms.toFixed(2).padStart(6)} ms at ${LARGE} (${l.total} match)${equal}  ${s.ms.toFixed(2).padStart(6)} ms at ${SMALL} (${s.total} match)  ratio ${ratio.toFixed(2)}  ${ok ? 'met' : 'NOT met'}`,
    );
  }
  console.log(
    `  slowest median ${slowest.toFixed(2)} ms (target <= ${MAX_MS}: ${slowest <= MAX_MS ? 'met' : 'NOT met'}), worst ratio ${worst.toFixed(2)} (target <= ${MAX_RATIO.toFixed(1)}: ${worst <= MAX_RATIO ? 'met' : 'NOT met'}); ${missed === 0 ? 'every target met' : `${missed} queries NOT met`}`,
  );
} finally {
  await large.close();
  await small.close();
}
