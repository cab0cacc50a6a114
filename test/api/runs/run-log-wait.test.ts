import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { countsInPlanOutput } from '../../../src/runner/run-folder.js';
import { runLogMayHaveGrown } from '../../../src/runner/wake.js';
import { appendRunLog } from '../../../src/services/runs/run-phases.js';
import type { AccessFixture } from '../../helpers/access.js';
import { claim, executingFixture, finish, newConfiguration, P, queueRun } from '../../helpers/run-execution.js';

/**
 * Issue 34: a read at the end of a log still being written waits for more (long poll) instead of
 * answering empty, so that the Terraform CLI does not sleep after it; a read of an ended log, or
 * before its end, answers at once.
 */
describe('log reads at the end of a running phase wait for more', () => {
  let f: AccessFixture;
  let runId: string;
  let path: string;
  beforeEach(async () => {
    f = await executingFixture();
    await newConfiguration(f, f.web);
    runId = (await queueRun(f, f.web)).id;
    await claim(f, runId, 'plan');
    const plan = (await f.api.get(`${P}/plans/plan-${runId.slice(4)}`, { token: f.owner.token })).body.data;
    path = new URL(plan.attributes['log-read-url']).pathname;
  });
  afterEach(() => f.api.close());
  const read = async (offset: number) => {
    const res = await f.api.request('GET', `${path}?limit=65536&offset=${offset}`, { token: null });
    expect(res.status, res.text).toBe(200);
    return res.text;
  };

  it('answers with what the executor writes next, when it writes it', async () => {
    const start = await read(0);
    expect(start.startsWith('\x02')).toBe(true);
    const waiting = read(start.length);
    await appendRunLog(f.api.store.db, runId, 'plan', Buffer.from('Plan: 1 to add, 0 to change, 0 to destroy.\n'));
    runLogMayHaveGrown(runId);
    expect(await waiting).toBe('Plan: 1 to add, 0 to change, 0 to destroy.\n');
  });

  it('finds bytes written without a word (an executor of another instance) by looking again', async () => {
    const start = await read(0);
    const waiting = read(start.length);
    await appendRunLog(f.api.store.db, runId, 'plan', Buffer.from('more\n'));
    expect(await waiting).toBe('more\n');
  });

  it('the end of the phase (ETX) ends the wait; a read past an ended log answers empty', async () => {
    const start = await read(0);
    const waiting = read(start.length);
    await finish(f, runId, 'plan');
    runLogMayHaveGrown(runId);
    expect(await waiting).toBe('\x03');
    expect(await read(start.length + 1)).toBe('');
  });
});

describe("the plan's summary line gives the counts", () => {
  it('reads the last summary at the start of a line, imports and forgets aside', () => {
    expect(countsInPlanOutput('x\nPlan: 200 to add, 0 to change, 0 to destroy.\n')).toEqual({
      additions: 200,
      changes: 0,
      destructions: 0,
    });
    expect(countsInPlanOutput('Plan: 1 to import, 2 to add, 3 to change, 4 to destroy, 1 to forget.\n')).toEqual({
      additions: 2,
      changes: 3,
      destructions: 4,
    });
    expect(
      countsInPlanOutput('  + x = "Plan: 9 to add, 9 to change, 9 to destroy."\nChanges to Outputs:\n'),
    ).toBeNull();
    expect(countsInPlanOutput('No changes. Your infrastructure matches the configuration.\n')).toBeNull();
  });
});
