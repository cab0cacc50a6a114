import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { Scheduler } from '../../../src/scheduler/scheduler.js';
import { claimRun } from '../../../src/services/runs/run-claim.js';
import { finishPhase, storeRunState } from '../../../src/services/runs/run-phases.js';
import { accessFixture, type AccessFixture } from '../../helpers/access.js';
import { TestApi } from '../../helpers/api.js';
import { TestClock } from '../../helpers/clock.js';
import { EXECUTING, newConfiguration, P, queueRun, workspaceDoc } from '../../helpers/run-execution.js';

/**
 * Health assessment runs are not listed among runs (HCP Terraform shows assessments on the
 * workspace's health page and through the assessment results API, not as runs): not in the
 * workspace's runs, the organization's run queue and capacity, nor the performance attributes;
 * never the workspace's current or latest run. They stay readable one by one (the assessment
 * result names its run) and the executor executes them.
 */

const DAY = 24 * 60 * 60_000;
const STATE = Buffer.from(
  JSON.stringify({
    version: 4,
    terraform_version: '1.11.4',
    serial: 1,
    lineage: 'hidden-assessments',
    outputs: {},
    resources: [
      {
        mode: 'managed',
        type: 'terraform_data',
        name: 'r',
        provider: 'provider["terraform.io/builtin/terraform"]',
        instances: [{ schema_version: 0, attributes: { id: 'x' } }],
      },
    ],
  }),
);

describe('health assessment runs are not listed as runs', () => {
  let f: AccessFixture;
  const clock = new TestClock();
  const db = () => f.api.store.db;
  const at = () => clock.now().toISOString();
  const t = () => ({ token: f.owner.token });
  let applied: string;

  beforeEach(async () => {
    clock.set(Date.parse('2030-01-15T12:00:00.000Z'));
    f = await accessFixture(await TestApi.create({ settings: { ...EXECUTING, edition: 'hosted' }, clock }));
    await newConfiguration(f, f.web);
    const run = await queueRun(f, f.web, { 'auto-apply': true });
    applied = run.id;
    await claimRun(db(), 'x', at());
    await finishPhase(db(), run.id, 'plan', { outcome: 'finished', hasChanges: true }, at());
    await claimRun(db(), 'x', at());
    await storeRunState(db(), run.id, STATE, at());
    await finishPhase(db(), run.id, 'apply', { outcome: 'finished' }, at());
    const patched = await f.api.patch(
      `${P}/workspaces/${f.web}`,
      { data: { type: 'workspaces', attributes: { 'assessments-enabled': true } } },
      t(),
    );
    expect(patched.status, patched.text).toBe(200);
  });
  afterEach(() => f.api.close());

  const assess = async () => {
    const s = new Scheduler({
      db: db(),
      clock,
      holder: 'h',
      edition: 'hosted',
      assessmentIntervalMs: DAY,
      log: () => {},
    });
    const [runId] = (await s.tick()).assessments;
    expect(runId).toMatch(/^run-/);
    return runId;
  };
  const listed = async () =>
    (await f.api.get(`${P}/workspaces/${f.web}/runs`, t())).body as { data: { id: string }[]; meta: any };

  it('the workspace lists only its own runs, while the assessment is queued and after it ended', async () => {
    const assessment = await assess();
    let runs = await listed();
    expect(runs.data.map((r) => r.id)).toEqual([applied]);
    expect(runs.meta.pagination['total-count']).toBe(1);
    // Readable by its id, as the assessment result's `run` relationship names it.
    const direct = await f.api.get(`${P}/runs/${assessment}`, t());
    expect(direct.status).toBe(200);
    expect(direct.body.data.attributes).toMatchObject({ 'refresh-only': true, 'plan-only': true });

    // Not in the organization's queue, nor counted in its capacity.
    const queue = await f.api.get(`${P}/organizations/acme/runs/queue`, t());
    expect(queue.body.data).toEqual([]);
    const capacity = await f.api.get(`${P}/organizations/acme/capacity`, t());
    expect(capacity.body.data.attributes).toEqual({ pending: 0, running: 0 });

    // The executor still takes it; it errors; the workspace's runs and metrics do not show it.
    expect((await claimRun(db(), 'x', at()))?.runId).toBe(assessment);
    await finishPhase(db(), assessment, 'plan', { outcome: 'errored', errorMessage: 'boom' }, at());
    runs = await listed();
    expect(runs.data.map((r) => r.id)).toEqual([applied]);
    const ws = (await workspaceDoc(f, f.web)).data;
    expect(ws.attributes['run-failures']).toBe(0);
    expect(ws.attributes['workspace-kpis-runs-count']).toBe(1);
    expect(ws.relationships['current-run'].data.id).toBe(applied);
    expect(ws.relationships['latest-run'].data.id).toBe(applied);
    const result = await f.api.get(
      `${P}/assessment-results/${ws.relationships['current-assessment-result'].data.id}`,
      t(),
    );
    expect(result.body.data.relationships.run.data.id).toBe(assessment);
  });

  it('a user run queued while an assessment waits is listed and queued alone', async () => {
    await assess();
    const mine = await queueRun(f, f.web, { 'plan-only': true });
    expect((await listed()).data.map((r) => r.id)).toEqual([mine.id, applied]);
    const queue = await f.api.get(`${P}/organizations/acme/runs/queue`, t());
    expect(queue.body.data.map((r: any) => [r.id, r.attributes['position-in-queue']])).toEqual([[mine.id, 1]]);
    expect((await f.api.get(`${P}/organizations/acme/capacity`, t())).body.data.attributes.pending).toBe(1);
  });
});
