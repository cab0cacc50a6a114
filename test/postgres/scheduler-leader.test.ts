import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Scheduler } from '../../src/scheduler/scheduler.js';
import { queueDueAutoDestroys } from '../../src/services/runs/auto-destroy.js';
import { openStore, type Store } from '../../src/store/open.js';
import { accessFixture, type AccessFixture } from '../helpers/access.js';
import { TestApi } from '../helpers/api.js';
import { TestClock } from '../helpers/clock.js';
import { EXECUTING, newConfiguration, P } from '../helpers/run-execution.js';
import { freshPostgresSchema } from '../helpers/store.js';

/**
 * Several serve instances on one PostgreSQL database (each its own pool): of their schedulers,
 * ticking at the same moments, one leads each round, and a due auto-destroy is queued once even
 * when every instance tries at once.
 */
describe('the scheduler on PostgreSQL with several instances', () => {
  let schema: Awaited<ReturnType<typeof freshPostgresSchema>>;
  const stores: Store[] = [];
  let f: AccessFixture;
  const clock = new TestClock();

  beforeAll(async () => {
    schema = await freshPostgresSchema();
    for (let i = 0; i < 3; i++) stores.push(await openStore(schema.url));
    f = await accessFixture(await TestApi.on(stores[0], { settings: EXECUTING, clock }));
    await newConfiguration(f, f.web);
  });
  afterAll(async () => {
    for (const s of stores) await s.close();
    await schema?.drop();
  });

  it('one leader per round among three instances; the due destroy run is queued once', async () => {
    const schedulers = stores.map(
      (s, i) =>
        new Scheduler({
          db: s.db,
          clock,
          holder: `instance-${i}`,
          intervalMs: 60_000,
          edition: 'self-hosted',
          assessmentIntervalMs: 0,
          log: () => {},
        }),
    );
    for (let round = 0; round < 5; round++) {
      const ticks = await Promise.all(schedulers.map((s) => s.tick()));
      expect(ticks.filter((t) => t.leader)).toHaveLength(1);
      clock.advance(60_000);
    }
    const patched = await f.api.patch(
      `${P}/workspaces/${f.web}`,
      { data: { type: 'workspaces', attributes: { 'auto-destroy-at': clock.now().toISOString() } } },
      { token: f.owner.token },
    );
    expect(patched.status, patched.text).toBe(200);
    const tries = await Promise.all(stores.map((s) => queueDueAutoDestroys(s.db, clock.now())));
    expect(tries.flat()).toHaveLength(1);
    const destroys = await stores[1].db
      .selectFrom('runs')
      .select('id')
      .where('workspace_id', '=', f.web)
      .where('is_destroy', '=', 1)
      .execute();
    expect(destroys).toHaveLength(1);
  });
});
