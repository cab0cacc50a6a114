import { createHash } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LOCAL_SITE_ADMIN } from '../../../src/domain/permissions/actor.js';
import type { ServiceContext } from '../../../src/services/context.js';
import { actOnRun } from '../../../src/services/runs/run-actions.js';
import { createExecutedRun, type ExecutedRunInput } from '../../../src/services/runs/run-queue.js';
import { createRun } from '../../../src/services/runs/runs.js';
import { createStateVersion } from '../../../src/services/state/state-versions.js';
import { lockWorkspace } from '../../../src/services/workspaces/workspace-locks.js';
import { writeTransaction } from '../../../src/store/transaction.js';
import { accessFixture, type AccessFixture } from '../../helpers/access.js';
import { TestApi } from '../../helpers/api.js';
import { TestClock } from '../../helpers/clock.js';
import { EXECUTING, newConfiguration, P, stateOf } from '../../helpers/run-execution.js';

/**
 * Issue 42, item 7: queue order is answer order. A run's `created-at` (and the times of the other
 * writes whose order matters: a state version's, a run's status moves) is taken once its write
 * holds the write lock, not before it waits for it: with two serves on one file, the one that
 * waited wrote its run after the other's with an earlier time. Here another write holds the lock
 * (as the other process's would) while the clock moves on; the time recorded is the later one.
 * Deterministic: the clock is a test clock, moved while the lock is held.
 */

const LATER = 60_000;

describe('times taken under the write lock', () => {
  let api: TestApi;
  let f: AccessFixture;
  let clock: TestClock;
  let ctx: ServiceContext;

  beforeEach(async () => {
    clock = new TestClock();
    api = await TestApi.create({ settings: EXECUTING, clock });
    f = await accessFixture(api);
    ctx = { db: api.store.db, actor: LOCAL_SITE_ADMIN, clock, settings: EXECUTING };
    await newConfiguration(f, f.web);
  });
  afterEach(() => api.close());

  /**
   * Starts `write` while another write transaction holds the lock, moves the clock on, then lets
   * the other commit: a time read before the wait is the earlier one, a time read after it the later.
   */
  async function whileLocked<T>(write: () => Promise<T>): Promise<{ result: T; after: string }> {
    let entered!: () => void;
    let release!: () => void;
    const inside = new Promise<void>((resolve) => (entered = resolve));
    const gate = new Promise<void>((resolve) => (release = resolve));
    const holder = writeTransaction(api.store.db, async () => {
      entered();
      await gate;
    });
    await inside;
    const pending = write();
    clock.advance(LATER);
    const after = clock.now().toISOString();
    release();
    await holder;
    return { result: await pending, after };
  }

  const runInput = (): ExecutedRunInput => ({
    workspaceId: f.web,
    configurationVersionId: null,
    message: null,
    isDestroy: false,
    refresh: true,
    refreshOnly: false,
    planOnly: false,
    autoApply: false,
    allowEmptyApply: false,
    targetAddrs: [],
    replaceAddrs: [],
    variables: [],
  });
  const runDoc = async (id: string) => (await api.get(`${P}/runs/${id}`, { token: f.owner.token })).body.data;

  it("an executed run's created-at, and the time it joined the queue", async () => {
    const { result, after } = await whileLocked(() => createExecutedRun(ctx, runInput()));
    const doc = await runDoc(result.id);
    expect(doc.attributes['created-at']).toBe(after);
    expect(doc.attributes['status-timestamps']['plan-queued-at']).toBe(after);
  });

  it("a recorded run's created-at", async () => {
    const { result, after } = await whileLocked(() =>
      createRun(ctx, { workspaceId: f.web, message: null, isDestroy: false }),
    );
    expect((await runDoc(result.id)).attributes['created-at']).toBe(after);
  });

  it("a run's status move (canceled-at)", async () => {
    const run = await createExecutedRun(ctx, runInput());
    await whileLocked(() => actOnRun(ctx, run.id, 'cancel'));
    const doc = await runDoc(run.id);
    expect(doc.attributes.status).toBe('canceled');
    expect(doc.attributes['status-timestamps']['canceled-at']).toBe(clock.now().toISOString());
  });

  it("a state version's created-at", async () => {
    await lockWorkspace(ctx, { id: f.web }, 'state');
    const state = stateOf(1, 'times-after-lock');
    const input = {
      serial: 1,
      md5: createHash('md5').update(state).digest('hex'),
      lineage: 'times-after-lock',
      state: state.toString('base64'),
      jsonState: null,
      force: false,
    };
    const { result, after } = await whileLocked(() => createStateVersion(ctx, { id: f.web }, input));
    expect(result.createdAt).toBe(after);
  });
});
