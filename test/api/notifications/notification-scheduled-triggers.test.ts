import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_SETTINGS } from '../../../src/services/context.js';
import { queueAutoDestroyReminders } from '../../../src/services/notifications/auto-destroy-reminders.js';
import { finishAssessment } from '../../../src/services/runs/assessments.js';
import { queueDueAutoDestroys } from '../../../src/services/runs/auto-destroy.js';
import { writeTransaction } from '../../../src/store/transaction.js';
import { TestApi } from '../../helpers/api.js';
import { TestClock } from '../../helpers/clock.js';

/**
 * The triggers that are no run's move: health assessments' results (a new drift, a new failure,
 * said once) and auto-destroys (a reminder 12 hours before, once per due time; the results of one
 * that queued nothing), each written to the outbox with HCP's payload version 2 facts.
 */
describe('assessment and auto-destroy notifications', () => {
  let api: TestApi;
  const clock = new TestClock(Date.UTC(2026, 0, 1));
  let ws: string;
  let n = 0;

  const outbox = async () => {
    const rows = await api.store.db.selectFrom('notification_deliveries').selectAll().orderBy('seq').execute();
    await api.store.db.deleteFrom('notification_deliveries').execute();
    return rows.map((r) => JSON.parse(r.payload));
  };
  const configure = async (triggers: string[]) => {
    // Enabled without a verification: these tests look at the outbox only.
    const res = await api.post(`/api/v2/workspaces/${ws}/notification-configurations`, {
      data: {
        type: 'notification-configurations',
        attributes: { 'destination-type': 'generic', name: 'hook', url: 'http://127.0.0.1:9/hook', triggers },
      },
    });
    expect(res.status, res.text).toBe(201);
    await api.store.db.updateTable('notification_configurations').set({ enabled: 1 }).execute();
  };
  /** An assessment of the workspace ending with `result`. */
  const assess = async (result: { outcome: 'finished' | 'errored'; hasChanges?: boolean }) => {
    const runId = `run-assessment${String(++n).padStart(5, '0')}`;
    const resultId = `asmtres-${String(n).padStart(16, '0')}`;
    await api.store.db
      .insertInto('assessment_results')
      .values({
        id: resultId,
        workspace_id: ws,
        run_id: runId,
        status: 'pending',
        drifted: null,
        succeeded: null,
        error_msg: null,
        created_at: clock.now().toISOString(),
        finished_at: null,
      })
      .execute();
    await writeTransaction(api.store.db, (tx) => finishAssessment(tx, runId, result, clock.now().toISOString()));
    return resultId;
  };

  beforeAll(async () => {
    api = await TestApi.create({ clock, settings: { ...DEFAULT_SETTINGS, edition: 'hosted' } });
    // Loopback URLs are the tests' (nothing is sent here).
    await api.store.db
      .insertInto('settings')
      .values({ key: 'notification-private-destinations', value: 'allow' })
      .execute();
    expect((await api.createOrg('acme')).status).toBe(201);
    ws = (
      await api.post('/api/v2/organizations/acme/workspaces', {
        data: { type: 'workspaces', attributes: { name: 'app' } },
      })
    ).body.data.id;
    await configure([
      'assessment:drifted',
      'assessment:failed',
      'workspace:auto_destroy_reminder',
      'workspace:auto_destroy_run_results',
    ]);
  });
  afterAll(() => api.close());

  it('tells a new drift and a new failure once, with the prior result', async () => {
    await assess({ outcome: 'finished', hasChanges: false });
    expect(await outbox()).toEqual([]);
    const drifted = await assess({ outcome: 'finished', hasChanges: true });
    const [facts] = await outbox();
    expect(facts).toMatchObject({
      scope: 'assessment',
      trigger: 'assessment:drifted',
      message: 'Drift Detected',
      newResult: { id: drifted, succeeded: true, drifted: true },
      priorResult: { succeeded: true, drifted: false },
      workspaceName: 'app',
      organizationName: 'acme',
    });
    // Still drifted: not told again.
    await assess({ outcome: 'finished', hasChanges: true });
    expect(await outbox()).toEqual([]);
    await assess({ outcome: 'errored' });
    expect((await outbox()).map((f) => f.trigger)).toEqual(['assessment:failed']);
    await assess({ outcome: 'errored' });
    expect(await outbox()).toEqual([]);
  });

  it('reminds 12 hours before an auto-destroy, once, then tells the results of one that queued nothing', async () => {
    const due = new Date(clock.now().getTime() + 13 * 3_600_000).toISOString();
    const set = await api.patch(`/api/v2/workspaces/${ws}`, {
      data: { type: 'workspaces', attributes: { 'auto-destroy-at': due } },
    });
    expect(set.status, set.text).toBe(200);
    expect(await queueAutoDestroyReminders(api.store.db, clock.now())).toEqual([]);
    clock.advance(2 * 3_600_000);
    expect(await queueAutoDestroyReminders(api.store.db, clock.now())).toEqual([ws]);
    expect(await queueAutoDestroyReminders(api.store.db, clock.now())).toEqual([]);
    expect(await outbox()).toMatchObject([
      { scope: 'workspace', trigger: 'workspace:auto_destroy_reminder', triggerType: 'reminder', autoDestroyAt: due },
    ]);
    clock.advance(12 * 3_600_000);
    // No configuration version: nothing can be queued, and its results say why.
    const outcomes = await queueDueAutoDestroys(api.store.db, clock.now(), true);
    expect(outcomes).toMatchObject([{ workspaceId: ws, outcome: 'no-configuration', runId: null }]);
    expect(await outbox()).toMatchObject([
      {
        trigger: 'workspace:auto_destroy_run_results',
        message: 'Auto Destroy Results',
        triggerType: 'results',
        runCreateErrorMessage: 'Configuration version is missing',
        runExternalId: null,
      },
    ]);
  });
});
