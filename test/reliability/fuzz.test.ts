import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fuzzRequest } from './fuzz-arbitraries.js';
import { databaseChecksum } from './seed.js';
import { freshWorld, problemWith } from './fuzz-check.js';
import { appRoutes, routeKey } from './routes.js';

/** Requests in the whole run (BERTH_FUZZ_RUNS), spread over rounds of a freshly seeded database each. */
const RUNS = Number(process.env.BERTH_FUZZ_RUNS ?? 20_000);
/** Successful deletes wear the seeded data down, so each round of this many requests starts afresh. */
const ROUND = 250;
const ROUNDS = Math.max(1, Math.ceil(RUNS / ROUND));

describe(`fuzzing every route (${RUNS} requests; BERTH_FUZZ_RUNS to change)`, () => {
  it(
    'never answers 5xx, always answers a valid JSON:API document, and a rejected request changes nothing',
    { timeout: 600_000 },
    async () => {
      let total = 0;
      const covered = new Set<string>();
      let routes: string[] = [];
      for (let round = 0; round < ROUNDS; round++) {
        const w = await freshWorld();
        const all = appRoutes(w.api);
        routes = all.map(routeKey);
        const numRuns = Math.min(ROUND, RUNS - total);
        try {
          await fc.assert(
            fc.asyncProperty(fuzzRequest(all), async (req) => {
              covered.add(routeKey(req.route));
              const problem = await problemWith(w, req);
              if (problem) {
                w.checksum = await databaseChecksum(w.api);
                throw new Error(problem);
              }
            }),
            { numRuns, endOnFailure: true },
          );
        } finally {
          await w.api.close();
        }
        total += numRuns;
      }
      expect(total).toBe(RUNS);
      // Every route was hit (the generator picks routes uniformly; 130 routes in 20,000 requests).
      if (RUNS >= 5_000) expect(routes.filter((r) => !covered.has(r))).toEqual([]);
    },
  );
});
