import { afterAll, beforeAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain ES module of the benchmarks, shared with bench/memory.mjs.
import { MEMORY_BOUND_MB, hammer, rssMb, setUpHostileTenant } from '../../bench/lib/hostile.mjs';
import { tempDb } from '../helpers/cli.js';
import { startServe, type ServeProcess } from '../helpers/serve.js';

/**
 * The bound (bench/lib/hostile.mjs, MEMORY_BOUND_MB: 640 MB of resident memory). `serve` idles
 * near 110 MB; with every text at its limit, the list page of 100 workspaces with every include
 * is at most a few MB (docs/api.md, "Limits") and at most four answers are computed at once. A
 * quiet run peaks near 400 MB because V8 collects lazily; with the whole suite running beside it
 * on two cores one run reached 472 MB. Without the limits, the same tenant's 900,000-character
 * descriptions made each page about 100 MB and `serve` passed 2.5 GB within seconds (issue 19:
 * it died at 8 GB).
 */
const BOUND_MB: number = MEMORY_BOUND_MB;
const HAMMER_SECONDS = 15;

interface Tenant {
  tokens: string[];
  org: string;
  workspaceIds: string[];
  lengths: Record<string, number>;
}
interface Hammered {
  peakMb: number;
  answered: number;
  largestAnswerBytes: number;
  meanAnswerBytes: number;
  unexpected: string[];
  gone: boolean;
}

describe('a hostile user cannot push serve past a fixed memory bound', () => {
  const tmp = tempDb();
  let serve: ServeProcess;

  beforeAll(async () => {
    // The default rate limit (30 requests per second per user): the four tokens of one user share it.
    serve = await startServe(tmp.db, ['--rate-limit', '30', '--prune-interval', '0']);
  });
  afterAll(async () => {
    await serve?.stop('SIGKILL');
    tmp.cleanup();
  });

  it(`stays under ${BOUND_MB} MB while one user hammers pages of maximum-length workspaces with every include`, async () => {
    const url = serve.url;
    const tenant = (await setUpHostileTenant(url, serve.token)) as Tenant;
    const pid = serve.child.pid!;
    const before = rssMb(pid) as number;
    const result = (await hammer(url, pid, tenant, {
      seconds: HAMMER_SECONDS,
      stopAboveMb: BOUND_MB,
    })) as Hammered;
    const summary = `peak ${result.peakMb.toFixed(0)} MB (from ${before.toFixed(0)} MB), ${result.answered} answers, largest ${(result.largestAnswerBytes / 1e6).toFixed(2)} MB`;
    console.log(`memory bound: ${summary}`);
    expect(result.gone, `serve died: ${summary}\n${serve.stderr().slice(-2000)}`).toBe(false);
    expect(result.peakMb, summary).toBeLessThan(BOUND_MB);
    expect(result.unexpected).toEqual([]);
    expect(result.answered).toBeGreaterThan(20);
    // One answer of the heaviest page stays within a few MB.
    expect(result.largestAnswerBytes).toBeLessThan(16 * 1024 * 1024);
    // Every text was refused beyond its limit: none of them reached the hostile lengths.
    expect(tenant.lengths.description).toBeLessThan(100_000);
  }, 240_000);
});
